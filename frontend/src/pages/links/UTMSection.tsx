// The UTM builder of the link form: the five parameters, the destination they make, and the
// workspace's templates (apply one, save the fields as one).
import { Button, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { FormError } from "../../components/states";
import { emptyUTM, mergeUTM, utmKeys, utmOf, type UTMState } from "../../lib/linkForm";
import { withScheme } from "../../lib/url";
import { useWorkspaceId } from "../../session";

export function UTMSection({
  url,
  utm,
  onChange,
  err,
}: {
  url: string;
  utm: UTMState;
  onChange: (u: UTMState) => void;
  err: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const [name, setName] = useState("");
  const templates = useQuery({
    queryKey: [ws, "utm-templates"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/utm-templates", { params: { path: { workspace: ws } } })),
  });
  const saveTemplate = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/workspaces/{workspace}/utm-templates", {
          params: { path: { workspace: ws } },
          body: { name: name.trim(), utm: utmOf(utm) ?? {} },
        }),
      ),
    onSuccess: () => {
      setName("");
      void client.invalidateQueries({ queryKey: [ws, "utm-templates"] });
      notifyDone(t("utm.templateSaved"));
    },
  });
  const list = templates.data?.templates ?? [];
  const preview = url.trim() ? mergeUTM(withScheme(url.trim()), utmOf(utm)) : "";

  return (
    <Stack gap="sm" data-testid="utm-builder">
      {list.length > 0 && (
        <NativeSelect
          label={t("utm.apply")}
          value=""
          onChange={(e) => {
            const tpl = list.find((x) => String(x.id) === e.currentTarget.value);
            if (tpl) onChange({ ...emptyUTM(), ...tpl.utm });
          }}
          data={[{ value: "", label: t("utm.choose") }, ...list.map((x) => ({ value: String(x.id), label: x.name }))]}
        />
      )}
      <Group grow className="stack-phone" align="flex-start">
        {utmKeys.slice(0, 3).map((k) => (
          <TextInput
            key={k}
            label={t(`utm.${k}`)}
            value={utm[k]}
            maxLength={200}
            onChange={(e) => onChange({ ...utm, [k]: e.currentTarget.value })}
            error={err(`utm.${k}`)}
          />
        ))}
      </Group>
      <Group grow className="stack-phone" align="flex-start">
        {utmKeys.slice(3).map((k) => (
          <TextInput
            key={k}
            label={t(`utm.${k}`)}
            value={utm[k]}
            maxLength={200}
            onChange={(e) => onChange({ ...utm, [k]: e.currentTarget.value })}
            error={err(`utm.${k}`)}
          />
        ))}
      </Group>
      {preview && (
        <div>
          <Text size="sm" fw={500}>
            {t("utm.preview")}
          </Text>
          <Text size="sm" className="mono" style={{ wordBreak: "break-all" }} data-testid="utm-preview">
            {preview}
          </Text>
        </div>
      )}
      <Group align="flex-end" className="stack-phone">
        <TextInput
          label={t("utm.templateName")}
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button
          variant="default"
          disabled={!name.trim() || !utmOf(utm)}
          loading={saveTemplate.isPending}
          onClick={() => saveTemplate.mutate()}
        >
          {t("utm.saveTemplate")}
        </Button>
      </Group>
      <FormError error={saveTemplate.error} />
    </Stack>
  );
}
