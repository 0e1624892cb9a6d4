// English and Simplified Chinese. The language is the one picked in the app (kept in
// localStorage), else the browser's: any zh-* is Simplified Chinese, anything else English.
import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import { en } from "./en";
import { zhCN } from "./zh-CN";

export const languages = [
  { value: "en", label: "English" },
  { value: "zh-CN", label: "简体中文" },
] as const;
export type Language = (typeof languages)[number]["value"];

/** The supported language closest to a browser's language tag. */
export function pickLanguage(tag: string | undefined): Language {
  return tag && /^zh\b/i.test(tag) ? "zh-CN" : "en";
}

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en }, "zh-CN": { translation: zhCN } },
    supportedLngs: ["en", "zh-CN"],
    fallbackLng: "en",
    detection: {
      order: ["localStorage", "navigator"],
      caches: ["localStorage"],
      convertDetectedLanguage: (lng: string) => pickLanguage(lng),
    },
    interpolation: { escapeValue: false },
    returnNull: false,
  });

i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = lng;
});

export default i18n;
