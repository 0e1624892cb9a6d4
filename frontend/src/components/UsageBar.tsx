// One usage against a plan's limit: its name, the figures, and a bar. Every place taken is said
// in words with an amber bar (the free plan's one member, its owner, is not an error); red only
// when more is used than the plan allows.
import { Group, Progress, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { usageColor, usageLevel, usagePercent } from "../lib/format";

export function UsageBar({ label, used, limit, testId }: { label: string; used: number; limit: number | null | undefined; testId?: string }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  const level = usageLevel(used, limit);
  const figures = { used: number.format(used), limit: limit == null ? "" : number.format(limit) };
  const text = limit == null ? t("plan.ofUnlimited", figures) : t({ room: "plan.of", full: "plan.ofFull", over: "plan.ofOver" }[level], figures);
  return (
    <div data-level={level}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm">{label}</Text>
        <Text size="sm" fw={level === "room" ? undefined : 500} data-testid={testId} ta="end">
          {text}
        </Text>
      </Group>
      <Progress value={usagePercent(used, limit)} color={usageColor(level)} mt={4} aria-label={`${label}: ${text}`} />
    </div>
  );
}
