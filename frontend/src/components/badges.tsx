import { Badge, Group } from "@mantine/core";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import type { Link } from "../api/client";
import { formatDateTime } from "../lib/format";

const statusColor = { active: "green", disabled: "gray", banned: "red", held: "orange" } as const;
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

const deviceOrder = ["ios", "android", "desktop"] as const;

/**
 * A badge per rule the link has (password, expiry, visit cap, geo, country and device targets,
 * variants, form, WeChat guide, query passing, preview); a rule the plan no longer applies is
 * struck through and says so.
 */
export function RuleBadges({ link }: { link: Link }) {
  const { t, i18n } = useTranslation();
  const inactive = new Set(link.inactive_rules ?? []);
  const list = (codes: string[]) => new Intl.ListFormat(i18n.resolvedLanguage, { style: "narrow", type: "conjunction" }).format(codes);
  const rules: { rule: string; label: string }[] = [];
  if (link.has_password) rules.push({ rule: "password", label: t("detail.password") });
  if (link.expires_at) rules.push({ rule: "expires_at", label: t("detail.expires", { date: formatDateTime(link.expires_at, i18n.resolvedLanguage) }) });
  if (link.max_visits != null) rules.push({ rule: "max_visits", label: t("detail.maxVisits", { count: link.max_visits }) });
  if (link.geo?.allow?.length) rules.push({ rule: "geo", label: t("detail.geoAllow", { countries: list(link.geo.allow) }) });
  if (link.geo?.deny?.length) rules.push({ rule: "geo", label: t("detail.geoDeny", { countries: list(link.geo.deny) }) });
  const targets = Object.keys(link.country_targets ?? {});
  if (targets.length) rules.push({ rule: "country_targets", label: t("detail.countryTargets", { count: targets.length }) });
  const devices = deviceOrder.filter((d) => link.device_targets?.[d]);
  if (devices.length) rules.push({ rule: "device_targets", label: t("detail.deviceTargets", { devices: list(devices.map((d) => t(`stats.devices.${d}`))) }) });
  if (link.variants?.length) rules.push({ rule: "variants", label: t("detail.variants", { count: link.variants.length }) });
  if (link.form) rules.push({ rule: "form", label: t("detail.form") });
  if (link.wechat_guide) rules.push({ rule: "wechat_guide", label: t("detail.wechat") });
  if (link.forward_query) rules.push({ rule: "forward_query", label: t("detail.forwardQuery") });
  if (link.og) rules.push({ rule: "og", label: t("detail.og") });
  if (rules.length === 0) return null;
  return (
    <Group gap={6} role="list" aria-label={t("detail.rules")} data-testid="rule-badges">
      {rules.map((r, i) => {
        const off = inactive.has(r.rule);
        return (
          <Badge
            key={i}
            role="listitem"
            variant="outline"
            color={off ? "gray" : "blue"}
            td={off ? "line-through" : undefined}
            title={off ? t("detail.inactive") : undefined}
            data-rule={r.rule}
          >
            {r.label}
          </Badge>
        );
      })}
    </Group>
  );
}

/** The badge of a link's tag: outlined in the tag's colour, unlike a status's filled one, its
 * name in the page's dark text whatever the colour (a tag may be any colour, and amber or lime
 * letters on white are unreadable: axe-core's color-contrast). */
export function TagBadge({ name, color, role, testId }: { name: string; color?: string; role?: string; testId?: string }) {
  return (
    <Badge size="sm" variant="outline" color={color ?? "gray"} style={{ "--badge-color": "var(--mantine-color-dark-7)" } as CSSProperties} role={role} data-testid={testId}>
      {name}
    </Badge>
  );
}
