// Toasts: a short confirmation that an action is done, or that it failed, in the corner of
// the screen (announced to screen readers), gone after a few seconds.
import { notifications } from "@mantine/notifications";
import i18n from "../i18n";

function show(message: string, color: string, autoClose: number) {
  notifications.show({ message, color, autoClose, withBorder: true, closeButtonProps: { "aria-label": i18n.t("common.closeNotice") } });
}

/** Says that an action is done. */
export function notifyDone(message: string) {
  show(message, "teal", 3000);
}

/** Says that an action failed, with the error's text. */
export function notifyFailed(message: string) {
  show(message, "red", 6000);
}
