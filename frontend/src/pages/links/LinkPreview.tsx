// The link form's live preview, folded as the form's sections are: the short link it will make
// and the social card its Open Graph fields give (lib/linkPreview.ts). The card's image is named by its host, not loaded: the app
// loads no image from other sites.
import { Accordion, Card, Stack, Text } from "@mantine/core";
import { IconPhoto } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { linkPreview, type PreviewInput } from "../../lib/linkPreview";

export function LinkPreview({ form, existing }: { form: PreviewInput; existing?: string }) {
  const { t } = useTranslation();
  const p = linkPreview(form, window.location.host, existing);
  return (
    <Accordion variant="contained" radius="md" chevronPosition="right" data-testid="link-preview">
      <Accordion.Item value="preview">
        <Accordion.Control data-testid="preview-toggle">
          <Text size="sm" fw={500}>
            {t("linkTools.preview")}
          </Text>
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap={6}>
            <Text className="mono break" fw={600} data-testid="preview-short-url">
              {p.shortUrl}
            </Text>
            <Card withBorder padding={0} className="preview-card">
              <div className="preview-image">
                <IconPhoto size={20} aria-hidden />
                <Text size="xs" c="dimmed">
                  {p.imageHost || t("linkTools.previewNoImage")}
                </Text>
              </div>
              <Stack gap={2} p="xs">
                <Text size="xs" c="dimmed" tt="uppercase">
                  {p.site}
                </Text>
                <Text size="sm" fw={600} lineClamp={2} data-testid="preview-title">
                  {p.title}
                </Text>
                {p.description && (
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {p.description}
                  </Text>
                )}
              </Stack>
            </Card>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
