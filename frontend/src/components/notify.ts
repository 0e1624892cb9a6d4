// Toasts: a short confirmation that an action is done, or that it failed, in the corner of
// the screen (announced to screen readers), gone after a few seconds.
import { notifications } from "@mantine/notifications";

/** Says that an action is done. */
export function notifyDone(message: string) {
  notifications.show({ message, color: "teal", autoClose: 3000, withBorder: true });
}

/** Says that an action failed, with the error's text. */
export function notifyFailed(message: string) {
  notifications.show({ message, color: "red", autoClose: 6000, withBorder: true });
}
