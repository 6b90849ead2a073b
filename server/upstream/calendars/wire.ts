import "server-only";
import { z } from "zod";
import { wireScalar } from "../values";

/** The service's earnings and M&A calendar records (docs/upstream.md §2). Private to server/upstream/. */

export const EARNINGS_PATH = "/api/v2.1/calendar/earnings";
export const MA_PATH = "/api/v2.1/calendar/ma";

export const upstreamEarningsRecordSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  date: z.string(),
  date_confirmed: wireScalar,
  time: wireScalar,
  ticker: z.string(),
  exchange: wireScalar,
  isin: wireScalar,
  cusip: wireScalar,
  name: wireScalar,
  currency: wireScalar,
  period: wireScalar,
  period_year: wireScalar,
  eps_type: wireScalar,
  eps: wireScalar,
  eps_est: wireScalar,
  eps_prior: wireScalar,
  eps_surprise: wireScalar,
  eps_surprise_percent: wireScalar,
  revenue_type: wireScalar,
  revenue: wireScalar,
  revenue_est: wireScalar,
  revenue_prior: wireScalar,
  revenue_surprise: wireScalar,
  revenue_surprise_percent: wireScalar,
  importance: wireScalar,
  notes: wireScalar,
  updated: wireScalar,
});
export type UpstreamEarningsRecord = z.infer<typeof upstreamEarningsRecordSchema>;

export const upstreamEarningsResponseSchema = z.union([
  z.array(upstreamEarningsRecordSchema),
  z.looseObject({ earnings: z.array(upstreamEarningsRecordSchema).nullish() }),
]);

export const upstreamMaRecordSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  date: z.string(),
  date_expected: wireScalar,
  date_completed: wireScalar,
  acquirer_ticker: wireScalar,
  acquirer_exchange: wireScalar,
  acquirer_name: wireScalar,
  acquirer_cusip: wireScalar,
  acquirer_isin: wireScalar,
  target_ticker: wireScalar,
  target_exchange: wireScalar,
  target_name: wireScalar,
  target_cusip: wireScalar,
  target_isin: wireScalar,
  currency: wireScalar,
  deal_type: wireScalar,
  deal_size: wireScalar,
  deal_payment_type: wireScalar,
  deal_status: wireScalar,
  deal_terms_extra: wireScalar,
  notes: wireScalar,
  importance: wireScalar,
  updated: wireScalar,
});
export type UpstreamMaRecord = z.infer<typeof upstreamMaRecordSchema>;

export const upstreamMaResponseSchema = z.union([
  z.array(upstreamMaRecordSchema),
  z.looseObject({ ma: z.array(upstreamMaRecordSchema).nullish() }),
]);
