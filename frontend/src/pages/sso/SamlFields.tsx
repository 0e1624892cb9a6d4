// The SAML half of the single sign-on settings: the service provider to register with the
// identity provider (its metadata to download, entity ID and ACS URL), and the provider's
// metadata, uploaded as XML or fetched from a URL (docs/security.md#saml).
import { Anchor, FileInput, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { RecordLine } from "../../components/RecordLine";
import { fieldError } from "../../components/states";
import type { components } from "../../api/schema";

type Settings = components["schemas"]["SSOSettings"];

// samlMetadataPath is the workspace's service provider metadata, served to anyone.
export function samlMetadataPath(ws: number) {
  return `/api/v1/auth/saml/${ws}/metadata`;
}

export function SamlServiceProvider({ ws, settings }: { ws: number; settings: Settings | null | undefined }) {
  const { t } = useTranslation();
  const sp = settings?.saml;
  return (
    <Stack gap={6} data-testid="saml-sp">
      <Text size="sm">{t("sso.samlSpHelp")}</Text>
      <div className="subcard">
        <Stack gap={6}>
          {sp && <RecordLine labelWidth={110} label={t("sso.samlEntityId")} value={sp.entity_id} copy testid="saml-entity-id" />}
          {sp && <RecordLine labelWidth={110} label={t("sso.samlAcs")} value={sp.acs_url} copy testid="saml-acs" />}
          <Anchor href={samlMetadataPath(ws)} download="shortlink-saml-metadata.xml" size="sm" data-testid="saml-sp-download">
            {t("sso.samlDownload")}
          </Anchor>
        </Stack>
      </div>
    </Stack>
  );
}

export function SamlFields({
  url,
  onUrl,
  file,
  onFile,
  settings,
  error,
}: {
  url: string;
  onUrl: (v: string) => void;
  file: File | null;
  onFile: (f: File | null) => void;
  settings: Settings | null | undefined;
  error: unknown;
}) {
  const { t } = useTranslation();
  const kept = settings?.protocol === "saml";
  return (
    <Stack gap="sm">
      <TextInput
        label={t("sso.samlMetadataUrl")}
        description={t("sso.samlMetadataUrlHelp")}
        placeholder="https://idp.example.com/metadata"
        value={url}
        onChange={(e) => onUrl(e.currentTarget.value)}
        error={fieldError(error, "idp_metadata_url")}
        autoCapitalize="none"
        spellCheck={false}
        disabled={!!file}
      />
      <FileInput
        label={t("sso.samlMetadataFile")}
        description={kept ? t("sso.samlMetadataKept", { entity: settings?.issuer }) : t("sso.samlMetadataFileHelp")}
        placeholder={t("sso.samlMetadataFilePlaceholder")}
        accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
        value={file}
        onChange={onFile}
        clearable
        error={fieldError(error, "idp_metadata_xml")}
        data-testid="saml-idp-file"
      />
    </Stack>
  );
}
