import { NativeSelect } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { languages, pickLanguage, setLanguage } from "../i18n";
import { saveMailLanguage } from "../lib/mailLanguage";

export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      aria-label={t("nav.language")}
      size="xs"
      data-testid="language"
      className="language-picker"
      value={pickLanguage(i18n.resolvedLanguage)}
      onChange={(e) => {
        const value = e.currentTarget.value;
        void setLanguage(value);
        void saveMailLanguage(value);
      }}
      data={languages.map((l) => ({ value: l.value, label: l.label }))}
    />
  );
}
