// The workspace's tags (docs/api.md): add one with a colour, rename or recolour it (every link shows
// the change at once), delete it (its links stay). Links get tags on their form too.
import { Button, Card, ColorInput, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { Empty, FormError, Queried, fieldError } from "../../components/states";
import { useTags } from "../../components/useTags";
import { useWorkspaceId } from "../../session";

/** The server's palette: a tag made without a colour gets one of these. */
const palette = ["#3b82f6", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#f97316", "#6366f1", "#84cc16"];

type Tag = { id: number; name: string; color: string; link_count?: number };

function useRefresh() {
  const ws = useWorkspaceId();
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: [ws, "tags"] });
    void client.invalidateQueries({ queryKey: [ws, "links"] });
  };
}

export default function TagsPage() {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const tags = useTags();
  const refresh = useRefresh();
  const [name, setName] = useState("");
  const [color, setColor] = useState("");
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/workspaces/{workspace}/tags", {
          params: { path: { workspace: ws } },
          body: color ? { name: name.trim(), color } : { name: name.trim() },
        }),
      ),
    onSuccess: (tg) => {
      setName("");
      setColor("");
      notifyDone(t("toasts.tagAdded", { name: tg.name }));
      refresh();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) add.mutate();
  };

  return (
    <Stack maw={900}>
      <Title order={2}>{t("tags.title")}</Title>
      <Text size="sm" c="dimmed">
        {t("tags.intro")}
      </Text>
      <Card withBorder>
        <form onSubmit={submit} noValidate>
          <Stack gap="xs">
            <Group align="flex-start" className="stack-phone">
              <TextInput
                className="grow"
                label={t("tags.name")}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={fieldError(add.error, "name")}
                maxLength={50}
                data-testid="tag-name"
              />
              <ColorInput
                label={t("tags.color")}
                placeholder={t("tags.autoColor")}
                value={color}
                onChange={setColor}
                format="hex"
                withEyeDropper={false}
                swatches={palette}
                error={fieldError(add.error, "color")}
                data-testid="tag-color"
              />
            </Group>
            <FormError error={add.error} fields={["name", "color"]} />
            <Group>
              <Button type="submit" loading={add.isPending} disabled={!name.trim()} data-testid="tag-add">
                {t("tags.add")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <Queried query={tags}>
        {(data) =>
          data.tags.length === 0 ? (
            <Empty title={t("tags.empty")} />
          ) : (
            <Stack gap="xs">
              {data.tags.map((tg) => (
                <TagRow key={`${tg.id}-${tg.name}-${tg.color}`} tag={tg} />
              ))}
            </Stack>
          )
        }
      </Queried>
    </Stack>
  );
}

function TagRow({ tag }: { tag: Tag }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const refresh = useRefresh();
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tag.color);
  const path = { workspace: ws, id: tag.id };
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH("/api/v1/workspaces/{workspace}/tags/{id}", {
          params: { path },
          body: { ...(name.trim() !== tag.name ? { name: name.trim() } : {}), ...(color !== tag.color ? { color } : {}) },
        }),
      ),
    onSuccess: () => {
      notifyDone(t("toasts.tagSaved"));
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/tags/{id}", { params: { path } })),
    onSuccess: () => {
      notifyDone(t("toasts.tagDeleted", { name: tag.name }));
      refresh();
    },
  });
  const changed = (name.trim() !== tag.name && name.trim() !== "") || color !== tag.color;
  return (
    <Paper withBorder p="sm" data-testid="tag-row">
      <Group align="flex-start" className="stack-phone">
        <TextInput
          className="grow"
          aria-label={t("tags.nameOf", { name: tag.name })}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fieldError(save.error, "name")}
          maxLength={50}
        />
        <ColorInput
          aria-label={t("tags.colorOf", { name: tag.name })}
          value={color}
          onChange={setColor}
          format="hex"
          withEyeDropper={false}
          swatches={palette}
          error={fieldError(save.error, "color")}
        />
        <Text size="sm" c="dimmed" mt={6} className="nowrap" data-testid="tag-link-count">
          {t("tags.linkCount", { count: tag.link_count ?? 0 })}
        </Text>
        <Group gap="xs">
          <Button variant="light" disabled={!changed} loading={save.isPending} onClick={() => save.mutate()}>
            {t("common.save")}
          </Button>
          <ConfirmButton
            variant="light"
            loading={remove.isPending}
            question={t("tags.confirmDelete", { name: tag.name })}
            detail={t("tags.deleteDetail")}
            onConfirm={() => remove.mutate()}
          >
            {t("common.remove")}
          </ConfirmButton>
        </Group>
      </Group>
      <FormError error={save.error ?? remove.error} fields={["name", "color"]} />
    </Paper>
  );
}
