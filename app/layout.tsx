import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
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

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The proxy's Content-Security-Policy allows inline scripts only with its per-request nonce.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The theme script sets the `dark` class before React hydrates, so <html> legitimately differs from the server's.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Runs during HTML parsing, before first paint: no flash of the wrong theme. */}
        {/* Browsers hide a nonce from the DOM after parsing, so the client never sees the server's value. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="bg-canvas text-fg antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
