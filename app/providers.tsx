"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { useState, type ReactNode } from "react";
import { ThemeProvider } from "@/components/shell/theme-provider";
import { isApiError } from "@/lib/queries/fetch-json";
import { refetchWhileStale, staleTimeUnlessStale } from "@/lib/queries/stale";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Calendars and fundamentals change slowly; the server caches too. Refetch on focus keeps two-screen users fresh.
        staleTime: staleTimeUnlessStale(30_000),
        // Data the server served from its cache during an upstream outage is retried until a fresh answer arrives.
        refetchInterval: refetchWhileStale,
        gcTime: 10 * 60_000,
        // A 4xx will not fix itself; upstream trouble (5xx) might.
        retry: (failureCount, error) => failureCount < 2 && !(isApiError(error) && error.status < 500),
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <NuqsAdapter>
        <ThemeProvider>{children}</ThemeProvider>
      </NuqsAdapter>
    </QueryClientProvider>
  );
}
