/** Calendar records exactly as they travel on the wire (docs/upstream.md §2): numbers are decimal strings, "" = none. */

export interface WireEarningsRecord {
  id: string;
  date: string; // YYYY-MM-DD
  date_confirmed: 0 | 1;
  time: string; // HH:MM:SS US Eastern
  ticker: string;
  exchange: string;
  isin: string;
  cusip: string;
  name: string;
  currency: string;
  period: "Q1" | "Q2" | "Q3" | "Q4" | "FY" | "H1" | "H2";
  period_year: number;
  eps_type: string;
  eps: string;
  eps_est: string;
  eps_prior: string;
  eps_surprise: string;
  /** Percent of the estimate's magnitude, e.g. "4.523" = a 4.523% beat (embedded decision; revenue likewise). */
  eps_surprise_percent: string;
  revenue_type: string;
  revenue: string;
  revenue_est: string;
  revenue_prior: string;
  revenue_surprise: string;
  revenue_surprise_percent: string;
  importance: number; // 0–5
  notes: string;
  updated: number; // Unix seconds
}

export type DealStatus = "Rumored" | "Announced" | "Regulatory Review" | "Completed" | "Canceled";
export type DealType = "Acquisition" | "Merger" | "Asset Sale";
export type DealPaymentType = "Cash" | "Stock" | "Cash & Stock" | "";

export interface WireMaRecord {
  id: string;
  date: string; // announced, YYYY-MM-DD
  date_expected: string; // YYYY-MM-DD, YYYY-QN, YYYY-MM or ""
  date_completed: string; // YYYY-MM-DD or ""
  acquirer_ticker: string;
  acquirer_exchange: string;
  acquirer_name: string;
  acquirer_cusip: string;
  acquirer_isin: string;
  target_ticker: string; // "" for private targets
  target_exchange: string; // "" for private targets
  target_name: string;
  target_cusip: string;
  target_isin: string;
  currency: string;
  deal_type: DealType;
  deal_size: string; // decimal string or ""
  deal_payment_type: DealPaymentType;
  deal_status: DealStatus;
  deal_terms_extra: string;
  notes: string;
  importance: number;
  updated: number;
}
