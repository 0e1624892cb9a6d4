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
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button color={color} {...button} onClick={() => setOpen(true)}>
        {children}
      </Button>
      <ConfirmDialog opened={open} question={question} detail={detail} confirmLabel={confirmLabel ?? children} color={color} onConfirm={onConfirm} onClose={() => setOpen(false)} />
    </>
  );
}

export interface ConfirmDialogProps {
  opened: boolean;
  question: string;
  detail?: ReactNode;
  confirmLabel: ReactNode;
  color?: ButtonProps["color"];
  onConfirm: () => void;
  /** Called on Cancel, Escape and after confirming. */
  onClose: () => void;
}

/** The dialog that asks, for a change asked for by something other than a button (a select). */
export function ConfirmDialog({ opened, question, detail, confirmLabel, color = "red", onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    // lockScroll off: react-remove-scroll would add a <style> element, which the policy refuses.
    <Modal opened={opened} onClose={onClose} title={question} centered lockScroll={false}>
      {detail && <Text size="sm" mb="md">{detail}</Text>}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button
          color={color}
          data-autofocus
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
