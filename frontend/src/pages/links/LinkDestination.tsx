// What a link's page says of where it leads beside its URL: its tags in their colours, its
// campaign parameters, and the destination as the redirect sends it (the URL with the UTM
// parameters merged, the API's `destination`).
import { Anchor, Group, Text } from "@mantine/core";
import { TagBadge } from "../../components/badges";
import { useTranslation } from "react-i18next";
import type { Link } from "../../api/client";
import { useTags } from "../../components/useTags";

const utmFields = ["source", "medium", "campaign", "term", "content"] as const;

export function LinkDestination({ link }: { link: Link }) {
  const { t } = useTranslation();
  const tags = useTags((link.tags ?? []).length > 0);
  const colors = new Map((tags.data?.tags ?? []).map((tg) => [tg.name, tg.color]));
  const utm = link.utm ? utmFields.flatMap((f) => (link.utm?.[f] ? [`utm_${f}=${link.utm[f]}`] : [])) : [];
  return (
    <>
      {(link.tags ?? []).length > 0 && (
        <Group gap={4} aria-label={t("detail.tags")} role="list" data-testid="detail-tags">
          {(link.tags ?? []).map((name) => (
            <TagBadge key={name} name={name} color={colors.get(name)} role="listitem" />
          ))}
        </Group>
      )}
      {utm.length > 0 && (
        <Text size="sm" c="dimmed" className="break" data-testid="detail-utm">
          {t("detail.utm")}: <span className="mono">{utm.join(" · ")}</span>
        </Text>
      )}
      {link.destination && link.destination !== link.url && (
        <Text size="sm" className="break" data-testid="detail-destination">
          {t("detail.sentTo")}{" "}
          <Anchor href={link.destination} target="_blank" rel="noreferrer noopener" size="sm" className="break">
            {link.destination}
          </Anchor>
        </Text>
      )}
    </>
  );
}
