import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Providers } from "./providers";
import { THEME_SCRIPT } from "@/components/shell/theme-script";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Callroom", template: "%s · Callroom" },
  description: "Live earnings calls, calendars and fundamentals for analysts.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#0d1117" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The theme script sets the `dark` class before React hydrates, so <html> legitimately differs from the server's.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Runs during HTML parsing, before first paint: no flash of the wrong theme. */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="bg-canvas text-fg antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
