// A section of the account page.
import { Card, Stack, Title } from "@mantine/core";
import { useId, type ReactNode } from "react";

/** A card named by its heading, so that it is a region one can find and jump to. */
export function Section({ title, children, anchor }: { title: string; children: ReactNode; anchor?: string }) {
  const id = useId();
  return (
    <Card withBorder component="section" aria-labelledby={id} id={anchor}>
      <Stack gap="sm">
        <Title order={3} id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
