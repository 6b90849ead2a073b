"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Section } from "@/components/ui/card";
import { MISSING, formatDate, formatNumber, monthName } from "@/lib/format";
import { fundamentalsQueries } from "@/lib/queries/fundamentals";
import type { AllFundamentalsItem } from "@/lib/schemas/fundamentals";
import { QueryPanel } from "./query-panel";
import { RatioLabel } from "./ratio-label";
import { text } from "./company-overview";

/*
 * The profile panels, at the foot of the company page: a module of their own so their code (with the ratios'
 * table of labels) is fetched once the page is up rather than with its first load (docs/performance.md,
 * First-load JS).
 */

function Dl({ items }: { items: readonly [ReactNode, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-4 text-[13px]">
      {items.map(([term, value], i) => (
        <div key={i} className="contents">
          <dt className="border-line text-muted border-b py-1">{term}</dt>
          <dd className="border-line border-b py-1 tabular-nums">{value ?? MISSING}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ProfilePanels({ symbol }: { symbol: string }) {
  const all = useQuery(fundamentalsQueries.kind("all", [symbol]));
  return (
    <QueryPanel result={all} what="company profile" isEmpty={(d) => d.data.length === 0} skeletonHeight={320}>
      {(d) => <ProfileContent item={d.data[0]!} />}
    </QueryPanel>
  );
}

function ProfileContent({ item }: { item: AllFundamentalsItem }) {
  const p = item.companyProfile;
  const s = item.shareClass;
  const c = item.assetClassification;
  const hq = p ? [p.address1, p.city, p.province, p.postalCode, p.country].filter(Boolean).join(", ") : "";
  const homepage = p?.homepage && /^https?:\/\//.test(p.homepage) ? p.homepage : null;
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <Section title="Profile" id="profile">
        {p?.longDescription || p?.shortDescription ? (
          <p className="mb-2 max-w-prose text-[13px] leading-relaxed">
            {p.longDescription ?? p.shortDescription}
          </p>
        ) : null}
        <Dl
          items={[
            ["Legal name", text(p?.legalName)],
            ["Headquarters", text(hq)],
            ["Phone", text(p?.phone)],
            [
              "Website",
              homepage ? (
                <a
                  href={homepage}
                  className="text-accent hover:underline"
                  rel="noopener noreferrer"
                  target="_blank"
                >
                  {homepage.replace(/^https?:\/\//, "")}
                </a>
              ) : (
                MISSING
              ),
            ],
            ["Fiscal year ends in", monthName(p?.fiscalYearEnd)],
            ["Status", text(p?.companyStatus)],
            ["CIK", text(item.company.cik)],
          ]}
        />
      </Section>
      <div className="flex flex-col gap-6">
        <Section title="Share class" id="share-class">
          <Dl
            items={[
              ["Share class ID", text(s?.shareClassId)],
              ["Security type", text(s?.securityType)],
              ["Currency", text(s?.currency)],
              ["IPO date", formatDate(s?.ipoDate)],
              [
                "Primary listing",
                s?.isPrimary === null || s?.isPrimary === undefined ? MISSING : s.isPrimary ? "Yes" : "No",
              ],
              [
                "Depositary receipt",
                s?.isDepositaryReceipt === null || s?.isDepositaryReceipt === undefined
                  ? MISSING
                  : s.isDepositaryReceipt
                    ? "Yes"
                    : "No",
              ],
            ]}
          />
        </Section>
        <Section title="Classification" id="classification">
          <Dl
            items={[
              ["Sector", text(c?.msSectorName)],
              ["Industry group", text(c?.msGroupName)],
              ["Industry", text(c?.msIndustryName)],
              ["SIC", c?.sic ? `${c.sic} · ${text(c.sicName)}` : MISSING],
              ["NAICS", c?.naics ? `${c.naics} · ${text(c.naicsName)}` : MISSING],
            ]}
          />
        </Section>
        <Section title="Alpha and beta" id="alpha-beta">
          {item.alphaBeta.length === 0 ? (
            <p className="text-muted text-[13px]">No alpha/beta available.</p>
          ) : (
            <table className="w-full text-[13px]">
              <thead>
                <tr className="border-line text-2xs text-muted border-b uppercase">
                  <th scope="col" className="py-1 text-left font-semibold">
                    Window
                  </th>
                  {(["alpha", "beta", "nonDivAlpha", "nonDivBeta"] as const).map((k) => (
                    <th key={k} scope="col" className="py-1 text-right font-semibold normal-case">
                      <RatioLabel ratioKey={k} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {item.alphaBeta.map((ab) => (
                  <tr key={`${ab.period}-${ab.asOf}`} className="border-line border-b">
                    <td className="py-1">
                      {ab.period ?? MISSING}{" "}
                      <span className="text-2xs text-muted">as of {formatDate(ab.asOf)}</span>
                    </td>
                    <td className="py-1 text-right tabular-nums">{formatNumber(ab.alpha, 3)}</td>
                    <td className="py-1 text-right tabular-nums">{formatNumber(ab.beta, 2)}</td>
                    <td className="py-1 text-right tabular-nums">{formatNumber(ab.nonDivAlpha, 3)}</td>
                    <td className="py-1 text-right tabular-nums">{formatNumber(ab.nonDivBeta, 2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Section>
      </div>
    </div>
  );
}
