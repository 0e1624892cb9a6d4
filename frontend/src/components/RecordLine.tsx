// One line of a DNS record to set (its name, type or value), with a button to copy it: the
// custom domains' and single sign-on's TXT records.
import { ActionIcon, CopyButton, Group, Text, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";

export function RecordLine({ label, value, copy, testid, labelWidth = 56 }: { label: string; value: string; copy?: boolean; testid?: string; labelWidth?: number }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Text size="xs" c="dimmed" w={labelWidth} className="record-label">
        {label}
      </Text>
      <Text size="sm" className="mono break grow" data-testid={testid}>
        {value}
      </Text>
      {copy && (
        <CopyButton value={value} timeout={1500}>
          {({ copied, copy: doCopy }) => (
            <Tooltip label={copied ? t("links.copied") : t("domains.copy", { what: label })} withArrow>
              <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} onClick={doCopy} aria-label={t("domains.copy", { what: label })} data-testid={testid ? `${testid}-copy` : undefined}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      )}
    </Group>
  );
}
