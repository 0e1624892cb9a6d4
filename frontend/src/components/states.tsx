// Loading, error and empty states, the same on every page.
import { Alert, Button, Center, Group, Loader, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconInbox } from "@tabler/icons-react";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client";

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{label ?? t("common.loading")}</Text>
      </Group>
    </Center>
  );
}

/** The message of an error as the server gave it, or a generic one. */
export function errorMessage(e: unknown, fallback: string): string {
  if (e instanceof ApiError) return e.requestId ? `${e.message} (${e.requestId})` : e.message;
  return fallback;
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title={t("common.error")} role="alert" data-testid="error-state">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(error, t("common.unexpected"))}</Text>
        {retry && (
          <Button size="xs" variant="light" color="red" onClick={retry}>
            {t("common.retry")}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** A form's failure: the server's message. */
export function FormError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="form-error">
      {errorMessage(error, t("common.unexpected"))}
    </Alert>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="empty-state">
      <IconInbox size={36} stroke={1.4} color="var(--mantine-color-gray-5)" />
      <Text fw={500}>{title}</Text>
      {children}
    </Stack>
  );
}

/** What a query shows: loading, its error with a retry, or what children make of its data. */
export function Queried<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  return children(query.data);
}
