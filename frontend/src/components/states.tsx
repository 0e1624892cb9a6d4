// Loading, error and empty states, the same on every page.
import { Alert, Button, Center, Group, Loader, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconInbox } from "@tabler/icons-react";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client";
import i18n from "../i18n";
import { TwoFactorRequired } from "./TwoFactorRequired";

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

/**
 * An error in the reader's language: the app's own text for the error's reason (errors.<reason>
 * in the translations), else for its code, else the server's message; a generic one for
 * anything that is not an ApiError.
 */
export function errorMessage(e: unknown, fallback: string): string {
  if (!(e instanceof ApiError)) return fallback;
  const text = reasonMessage(e.reason, e.code, e.message);
  return e.requestId ? `${text} (${e.requestId})` : text;
}

/** A reason and code the API gave (in an error, or a row's result) in the reader's language, else
 * the server's message. */
export function reasonMessage(reason: string | undefined, code: string, message: string): string {
  const key = [`errors.${reason}`, `errors.${code}`].find((k) => i18n.exists(k));
  return key ? i18n.t(key) : message;
}

/** The error's text when it is about the given input field, else undefined: shown next to it. */
export function fieldError(e: unknown, field: string): string | undefined {
  return e instanceof ApiError && e.field === field ? errorMessage(e, "") : undefined;
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const { t } = useTranslation();
  // The workspace requires two-factor sign-in of this person: say so, with the way to it.
  if (error instanceof ApiError && error.reason === "2fa_required") return <TwoFactorRequired />;
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

/**
 * A form's failure in the reader's language (errorMessage); nothing when the error is about one
 * of fields, whose inputs show it (fieldError).
 */
export function FormError({ error, fields }: { error: unknown; fields?: string[] }) {
  const { t } = useTranslation();
  if (!error || (error instanceof ApiError && error.field && fields?.includes(error.field))) return null;
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
