// English and Simplified Chinese. The language is the one picked in the app (kept in
// localStorage), else the browser's: any zh-* is Simplified Chinese, anything else English.
// English is in the first page's script (it is every text's fallback); Chinese is a chunk of
// its own, fetched before the first render when it is the language, or when it is picked.
import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import { en } from "./en";

export const languages = [
  { value: "en", label: "English" },
  { value: "zh-CN", label: "简体中文" },
] as const;
export type Language = (typeof languages)[number]["value"];

/** The supported language closest to a browser's language tag. */
export function pickLanguage(tag: string | undefined): Language {
  return tag && /^zh\b/i.test(tag) ? "zh-CN" : "en";
}

/** Fetches the texts of lng when they are not loaded yet. */
async function loadTexts(lng: Language): Promise<void> {
  if (lng === "zh-CN" && !i18n.hasResourceBundle("zh-CN", "translation")) {
    const { zhCN } = await import("./zh-CN");
    i18n.addResourceBundle("zh-CN", "translation", zhCN);
  }
}

/** Switches the app to lng once its texts are loaded. */
export async function setLanguage(lng: string): Promise<void> {
  const language = pickLanguage(lng);
  await loadTexts(language);
  await i18n.changeLanguage(language);
}

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
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
  if (typeof document !== "undefined") document.documentElement.lang = lng;
});

/** Settles once the detected language's texts are loaded: the first render waits for it. */
export const textsReady: Promise<void> = loadTexts(pickLanguage(i18n.language))
  .then(() => i18n.changeLanguage(i18n.language))
  .then(
    () => undefined,
    () => undefined, // a chunk that cannot load leaves English, the fallback
  );

export default i18n;
