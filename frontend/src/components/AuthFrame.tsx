// The frame of the pages outside the app's navigation (log-in, sign-up, the mailed links'
// pages, a person without a workspace): the page's content landmark, the language picker and
// one card.
import { Card, Group } from "@mantine/core";
import type { ReactNode } from "react";
import { LanguagePicker } from "./LanguagePicker";

export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <main className="auth" id="main" tabIndex={-1}>
      <Group justify="flex-end" mb="md">
        <LanguagePicker />
      </Group>
      <Card withBorder padding="lg" className="auth-card">
        {children}
      </Card>
    </main>
  );
}
