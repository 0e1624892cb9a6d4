import { Card, Text } from "@mantine/core";
import i18n from "../i18n";
import { formatNumber } from "../lib/format";

/** One number with its label. */
export function Figure({ label, value, testId }: { label: string; value: number; testId?: string }) {
  return (
    <Card withBorder padding="sm" className="figure">
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {formatNumber(value, i18n.resolvedLanguage)}
      </Text>
    </Card>
  );
}
