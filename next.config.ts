import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // A separate dist dir lets parallel test runs and builds stay out of each other's way.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ["ws", "pino"],
};

export default nextConfig;
