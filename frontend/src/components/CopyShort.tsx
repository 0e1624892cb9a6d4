import { ActionIcon, CopyButton, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";

/** Copies a short URL in one click. */
export function CopyShort({ url }: { url: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={url} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t("links.copied") : t("links.copy")} withArrow>
          <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} onClick={copy} aria-label={t("links.copy")} data-testid="copy-short-url">
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
