// Asking before a change that cannot be undone: a dialog of the app's own (named, focus kept
// inside, Escape cancels) instead of the browser's confirm().
import { Button, Group, Modal, Text, type ButtonProps } from "@mantine/core";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

export interface ConfirmButtonProps extends ButtonProps {
  /** The dialog's question, such as "Remove sho.example?". */
  question: string;
  /** What happens, in a sentence under the question; optional. */
  detail?: ReactNode;
  /** The confirming button's label; the button's own label by default. */
  confirmLabel?: string;
  onConfirm: () => void;
  children: ReactNode;
  "data-testid"?: string;
}

/** A button that asks, in a dialog, before it calls onConfirm. */
export function ConfirmButton({ question, detail, confirmLabel, onConfirm, children, color = "red", ...button }: ConfirmButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button color={color} {...button} onClick={() => setOpen(true)}>
        {children}
      </Button>
      {/* lockScroll off: react-remove-scroll would add a <style> element, which the policy refuses. */}
      <Modal opened={open} onClose={() => setOpen(false)} title={question} centered lockScroll={false} closeButtonProps={{ "aria-label": t("common.close") }}>
        {detail && <Text size="sm" mb="md">{detail}</Text>}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t("common.cancel")}
          </Button>
          <Button
            color={color}
            data-autofocus
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel ?? children}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
