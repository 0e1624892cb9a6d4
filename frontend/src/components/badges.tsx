import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { Link } from "../api/client";

const statusColor = { active: "green", disabled: "gray", banned: "red" } as const;
const moderationColor = { pending: "gray", passed: "green", flagged: "orange", banned: "red" } as const;

export function StatusBadge({ link }: { link: Link }) {
  const { t } = useTranslation();
  return (
    <Badge color={statusColor[link.status]} variant="light" data-testid="link-status">
      {t(`links.status.${link.status}`)}
    </Badge>
  );
}

export function ModerationBadge({ link }: { link: Link }) {
  const { t } = useTranslation();
  const state = link.moderation.state;
  return (
    <Badge color={moderationColor[state]} variant="dot">
      {t(`moderation.state.${state}`)}
    </Badge>
  );
}

/** A link made on a custom domain since removed: it answers nowhere. */
export function DomainRemovedBadge({ link }: { link: Link }) {
  const { t } = useTranslation();
  if (!link.domain_removed) return null;
  return (
    <Badge color="orange" variant="outline" title={t("links.domainRemovedHelp", { domain: link.domain })} data-testid="domain-removed-badge">
      {t("links.domainRemoved")}
    </Badge>
  );
}
