import "@mantine/core/styles/default-css-variables.css";
import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "./theme.css";
import "./app.css";
import { textsReady } from "./i18n";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";

// The server serves the app at / too; its routes live under /app, but for the public pages of
// shared statistics (/share/{id}).
if (!location.pathname.startsWith("/app") && !location.pathname.startsWith("/share/")) {
  history.replaceState(null, "", "/app/" + location.search + location.hash);
}

// The first render waits for the language's texts (a chunk of its own but for English).
void textsReady.then(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
