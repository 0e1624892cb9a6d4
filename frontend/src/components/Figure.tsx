import { Card, Text } from "@mantine/core";

/** One number with its label. */
export function Figure({ label, value, testId }: { label: string; value: number; testId?: string }) {
  return (
    <Card withBorder padding="sm" className="figure">
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value.toLocaleString()}
      </Text>
    </Card>
  );
}
