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

/**
 * The link's moderation state. Beside the status badge it says nothing twice: a banned link's
 * status already says "Banned". `always` shows it alone (the moderators' desk).
 */
export function ModerationBadge({ link, always }: { link: Link; always?: boolean }) {
  const { t } = useTranslation();
  const state = link.moderation.state;
  if (!always && state === "banned" && link.status === "banned") return null;
  return (
    <Badge color={moderationColor[state]} variant="dot" data-testid="moderation-badge">
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
