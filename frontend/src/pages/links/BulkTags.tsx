// The bulk bar's tag actions: a dialog to name the tags to put on (or take off) every selected
// link, sent as one PATCH …/links; each link's own answer comes back and the page lists the
// links that were refused, with the reason of each.
import { Button, Group, Modal, TagsInput } from "@mantine/core";
import { useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { tagSuggestions } from "../../components/tagSuggestions";

export interface BulkTagsProps {
  /** "add" puts the tags on, "remove" takes them off. */
  mode: "add" | "remove";
  /** The workspace's tag names, suggested as one types. */
  suggestions: string[];
  loading: boolean;
  onApply: (names: string[]) => void;
}

/** The suggestions' popover, in the dialog's flow (app.css) and closed by the field's blur
 * alone. closeOnClickOutside is the Popover's that Combobox passes it, which its type omits. */
const inFlowSuggestions = { withinPortal: false, closeOnClickOutside: false, classNames: { dropdown: "inline-suggestions" } };

/** Keeps the focus where it is when a button is pressed: its click still follows. */
const keepFocus = (e: MouseEvent) => e.preventDefault();

/** A bulk-bar button whose dialog asks which tags to add or remove. */
export function BulkTagsButton({ mode, suggestions, loading, onApply }: BulkTagsProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [names, setNames] = useState<string[]>([]);
  const label = t(mode === "add" ? "links.addTags" : "links.removeTags");
  const close = () => {
    setOpen(false);
    setNames([]);
  };
  return (
    <>
      <Button size="xs" variant="light" onClick={() => setOpen(true)} loading={loading} data-testid={`bulk-tags-${mode}`}>
        {label}
      </Button>
      {/* lockScroll off: react-remove-scroll would add a <style> element, which the policy refuses. */}
      <Modal opened={open} onClose={close} title={label} centered lockScroll={false}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (names.length === 0) return;
            onApply(names);
            close();
          }}
        >
          <TagsInput
            label={t("links.tagsToChange")}
            description={t(mode === "add" ? "links.addTagsHelp" : "links.removeTagsHelp")}
            value={names}
            onChange={setNames}
            data={suggestions}
            maxTags={20}
            splitChars={[",", ";"]}
            clearable
            clearButtonProps={{ "aria-label": t("links.clearTagsToChange") }}
            data-autofocus
            data-testid="bulk-tags-input"
            // The suggestions open in the dialog's flow, pushing its buttons down: floating, they
            // covered the button that applies the tags. They close when the field loses the
            // focus, not on any press outside them, and the buttons keep the field's focus
            // (keepFocus): closing on the press would move the button up from under the pointer
            // (the dialog shrinks) before its click.
            {...tagSuggestions}
            comboboxProps={inFlowSuggestions}
          />
          <Group justify="flex-end" gap="sm" mt="md">
            <Button variant="default" onClick={close} onMouseDown={keepFocus}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" disabled={names.length === 0} onMouseDown={keepFocus} data-testid="bulk-tags-apply">
              {label}
            </Button>
          </Group>
        </form>
      </Modal>
    </>
  );
}
