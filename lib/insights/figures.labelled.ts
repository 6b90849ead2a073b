/**
 * Sentences in earnings-call style, written for this test set (none from the demo generator), with the figures a
 * careful analyst would take from each. Sentences with no figure to take are part of the set on purpose: they are
 * where a careless extractor invents figures.
 */
import type { FigureBasis, FigureKind, FigureMetric, FigurePeriod, FigureUnit } from "@/lib/schemas/insights";

export interface ExpectedFigure {
  metric: FigureMetric;
  value: number;
  unit: FigureUnit;
  kind?: FigureKind;
  period?: FigurePeriod;
  isGuidance?: boolean;
  basis?: FigureBasis | null;
  segment?: string;
  low?: number;
  high?: number;
}

export interface LabelledSentence {
  text: string;
  figures: ExpectedFigure[];
}

const B = 1e9;
const M = 1e6;

export const LABELLED_SENTENCES: LabelledSentence[] = [
  {
    text: "Total revenue for the third quarter was $1.2 billion, up 14% year over year.",
    figures: [
      { metric: "revenue", value: 1.2 * B, unit: "usd" },
      { metric: "revenue", value: 14, unit: "percent", kind: "change" },
    ],
  },
  {
    text: "Revenue came in at 1.2 billion dollars, ahead of the high end of our outlook.",
    figures: [{ metric: "revenue", value: 1.2 * B, unit: "usd" }],
  },
  {
    text: "Gross margin was 45.2%, up 40 basis points from last year.",
    figures: [
      { metric: "gross_margin", value: 45.2, unit: "percent" },
      { metric: "gross_margin", value: 40, unit: "bps", kind: "change" },
    ],
  },
  {
    text: "For the fourth quarter, we expect revenue in the range of $7.88 to $8.2 billion.",
    figures: [
      {
        metric: "revenue",
        value: 8.04 * B,
        unit: "usd",
        isGuidance: true,
        period: "next_quarter",
        low: 7.88 * B,
        high: 8.2 * B,
      },
    ],
  },
  {
    text: "We expect revenue to grow in the low single digits next quarter.",
    figures: [
      {
        metric: "revenue",
        value: 2,
        unit: "percent",
        kind: "change",
        isGuidance: true,
        period: "next_quarter",
        low: 1,
        high: 3,
      },
    ],
  },
  {
    text: "GAAP diluted earnings per share were $1.42, compared with $1.18 in the year-ago quarter.",
    figures: [
      { metric: "eps", value: 1.42, unit: "usd_per_share", basis: "gaap" },
      { metric: "eps", value: 1.18, unit: "usd_per_share", period: "prior_year_quarter", basis: "gaap" },
    ],
  },
  {
    text: "Non-GAAP EPS was $2.05, a record for the company.",
    figures: [{ metric: "eps", value: 2.05, unit: "usd_per_share", basis: "adjusted" }],
  },
  {
    text: "On a GAAP basis, we reported a net loss of $0.12 per share.",
    figures: [{ metric: "eps", value: -0.12, unit: "usd_per_share", basis: "gaap" }],
  },
  {
    text: "Net loss for the quarter was $45 million.",
    figures: [{ metric: "net_income", value: -45 * M, unit: "usd" }],
  },
  {
    text: "Data Center revenue was $2.1 billion, up 35% sequentially.",
    figures: [
      { metric: "segment_revenue", value: 2.1 * B, unit: "usd", segment: "Data Center" },
      { metric: "segment_revenue", value: 35, unit: "percent", kind: "change", segment: "Data Center" },
    ],
  },
  {
    text: "Services revenue declined 4% to $612 million.",
    figures: [
      { metric: "segment_revenue", value: -4, unit: "percent", kind: "change", segment: "Services" },
      { metric: "segment_revenue", value: 612 * M, unit: "usd", segment: "Services" },
    ],
  },
  {
    text: "We produced $2.3 billion in free cash flow and closed the quarter with $6.8 billion in cash and investments.",
    figures: [
      { metric: "free_cash_flow", value: 2.3 * B, unit: "usd" },
      { metric: "cash", value: 6.8 * B, unit: "usd" },
    ],
  },
  {
    text: "Operating margin expanded 120 basis points to 18.5%.",
    figures: [
      { metric: "operating_margin", value: 120, unit: "bps", kind: "change" },
      { metric: "operating_margin", value: 18.5, unit: "percent" },
    ],
  },
  {
    text: "Adjusted EBITDA was $310 million, representing a margin of 22%.",
    figures: [{ metric: "ebitda", value: 310 * M, unit: "usd", basis: "adjusted" }],
  },
  {
    text: "Let me correct that: revenue was $4.2 billion, not $4.3 billion.",
    figures: [{ metric: "revenue", value: 4.2 * B, unit: "usd" }],
  },
  {
    text: "In the year-ago quarter, revenue was $3.6 billion.",
    figures: [{ metric: "revenue", value: 3.6 * B, unit: "usd", period: "prior_year_quarter" }],
  },
  {
    text: "We are raising our full-year revenue guidance to $17.2 billion to $17.4 billion.",
    figures: [
      {
        metric: "revenue",
        value: 17.3 * B,
        unit: "usd",
        isGuidance: true,
        period: "full_year",
        low: 17.2 * B,
        high: 17.4 * B,
      },
    ],
  },
  {
    text: "We expect non-GAAP earnings per share of $1.10 to $1.15 for the fourth quarter.",
    figures: [
      {
        metric: "eps",
        value: 1.125,
        unit: "usd_per_share",
        isGuidance: true,
        period: "next_quarter",
        basis: "adjusted",
        low: 1.1,
        high: 1.15,
      },
    ],
  },
  {
    text: "Capital expenditures were $240 million, and we expect capex of roughly $1 billion for the full year.",
    figures: [
      { metric: "capex", value: 240 * M, unit: "usd" },
      { metric: "capex", value: 1 * B, unit: "usd", isGuidance: true, period: "full_year" },
    ],
  },
  {
    text: "During the quarter we repurchased $500 million of our shares.",
    figures: [{ metric: "buyback", value: 500 * M, unit: "usd" }],
  },
  {
    text: "The board approved a quarterly dividend of $0.24 per share.",
    figures: [{ metric: "dividend", value: 0.24, unit: "usd_per_share" }],
  },
  {
    text: "Our effective tax rate was 17.8%, slightly below our expectations.",
    figures: [{ metric: "tax_rate", value: 17.8, unit: "percent" }],
  },
  {
    text: "We added 3 new customers with more than $1 million in annual recurring revenue.",
    figures: [],
  },
  {
    text: "Thank you, operator, and good afternoon, everyone.",
    figures: [],
  },
  {
    text: "Before we begin, let me remind you that today's discussion contains forward-looking statements.",
    figures: [],
  },
  {
    text: "Operating expenses were $820 million, up 6% year over year as we continued to invest in R&D.",
    figures: [
      { metric: "operating_expenses", value: 820 * M, unit: "usd" },
      { metric: "operating_expenses", value: 6, unit: "percent", kind: "change" },
    ],
  },
  {
    text: "Operating income was $1.05 billion, or 24.1% of revenue.",
    figures: [{ metric: "operating_income", value: 1.05 * B, unit: "usd" }],
  },
  {
    text: "Net income was $812 million, compared with $655 million a year ago.",
    figures: [
      { metric: "net_income", value: 812 * M, unit: "usd" },
      { metric: "net_income", value: 655 * M, unit: "usd", period: "prior_year_quarter" },
    ],
  },
  {
    text: "Sales in the quarter totaled $950M, down 3% from the prior year.",
    figures: [
      { metric: "revenue", value: 950 * M, unit: "usd" },
      { metric: "revenue", value: -3, unit: "percent", kind: "change" },
    ],
  },
  {
    text: "Gross margin contracted 2 percentage points to 38% on higher input costs.",
    figures: [
      { metric: "gross_margin", value: -200, unit: "bps", kind: "change" },
      { metric: "gross_margin", value: 38, unit: "percent" },
    ],
  },
  {
    text: "We now expect gross margin of 44% to 45% in the fourth quarter.",
    figures: [
      {
        metric: "gross_margin",
        value: 44.5,
        unit: "percent",
        isGuidance: true,
        period: "next_quarter",
        low: 44,
        high: 45,
      },
    ],
  },
  {
    text: "Cash flow from operations was $1.6 billion for the quarter.",
    figures: [{ metric: "operating_cash_flow", value: 1.6 * B, unit: "usd" }],
  },
  {
    text: "We ended the quarter with cash and cash equivalents of $2.3 billion and no debt.",
    figures: [{ metric: "cash", value: 2.3 * B, unit: "usd" }],
  },
  {
    text: "Backlog stood at $12 billion, a new record.",
    figures: [{ metric: "backlog", value: 12 * B, unit: "usd" }],
  },
  {
    text: "EPS came in at $3.87, which includes a $0.15 charge related to the restructuring.",
    figures: [{ metric: "eps", value: 3.87, unit: "usd_per_share" }],
  },
  {
    text: "Last year's third quarter revenue of $2.9 billion included a one-time licensing deal.",
    figures: [{ metric: "revenue", value: 2.9 * B, unit: "usd", period: "prior_year_quarter" }],
  },
  {
    text: "Cloud revenue grew 28% to $3.4 billion.",
    figures: [
      { metric: "segment_revenue", value: 28, unit: "percent", kind: "change", segment: "Cloud" },
      { metric: "segment_revenue", value: 3.4 * B, unit: "usd", segment: "Cloud" },
    ],
  },
  {
    text: "Industrial Automation delivered $780 million in revenue, up 9%.",
    figures: [
      { metric: "segment_revenue", value: 780 * M, unit: "usd", segment: "Industrial Automation" },
      {
        metric: "segment_revenue",
        value: 9,
        unit: "percent",
        kind: "change",
        segment: "Industrial Automation",
      },
    ],
  },
  {
    text: "For the full year, we now anticipate free cash flow between $3.5 billion and $3.8 billion.",
    figures: [
      {
        metric: "free_cash_flow",
        value: 3.65 * B,
        unit: "usd",
        isGuidance: true,
        period: "full_year",
        low: 3.5 * B,
        high: 3.8 * B,
      },
    ],
  },
  {
    text: "Could you talk about what drove the 40 basis points of gross margin expansion?",
    figures: [],
  },
  {
    text: "Adjusted earnings per share were $0.87, compared with $0.91 last quarter.",
    figures: [
      { metric: "eps", value: 0.87, unit: "usd_per_share", basis: "adjusted" },
      { metric: "eps", value: 0.91, unit: "usd_per_share", period: "prior_quarter", basis: "adjusted" },
    ],
  },
  {
    text: "We delivered record quarterly revenue of $5.03 billion.",
    figures: [{ metric: "revenue", value: 5.03 * B, unit: "usd" }],
  },
  {
    text: "Revenue was $88.5 million, an increase of 22% over the same quarter last year.",
    figures: [
      { metric: "revenue", value: 88.5 * M, unit: "usd" },
      { metric: "revenue", value: 22, unit: "percent", kind: "change" },
    ],
  },
  {
    text: "We expect operating margin to be roughly flat at about 31% for the year.",
    figures: [
      { metric: "operating_margin", value: 31, unit: "percent", isGuidance: true, period: "full_year" },
    ],
  },
  {
    text: "Our headcount increased by 1,200 people, mostly in engineering.",
    figures: [],
  },
  {
    text: "Subscription revenue reached $410 million, representing 72% of total revenue.",
    figures: [{ metric: "segment_revenue", value: 410 * M, unit: "usd", segment: "Subscription" }],
  },
  {
    text: "Earnings per share were 48 cents, up from 41 cents a year ago.",
    figures: [
      { metric: "eps", value: 0.48, unit: "usd_per_share" },
      { metric: "eps", value: 0.41, unit: "usd_per_share", period: "prior_year_quarter" },
    ],
  },
  {
    text: "We reaffirm our full-year outlook for EPS of $6.40 to $6.60.",
    figures: [
      {
        metric: "eps",
        value: 6.5,
        unit: "usd_per_share",
        isGuidance: true,
        period: "full_year",
        low: 6.4,
        high: 6.6,
      },
    ],
  },
  {
    text: "Interest expense was $38 million, in line with our plan.",
    figures: [{ metric: "interest_expense", value: 38 * M, unit: "usd" }],
  },
  {
    text: "Free cash flow was negative $120 million, reflecting the timing of working capital.",
    figures: [{ metric: "free_cash_flow", value: -120 * M, unit: "usd" }],
  },
  {
    text: "Revenue in the Americas was $1.8 billion, while revenue in Europe fell 7% to $640 million.",
    figures: [
      { metric: "segment_revenue", value: 1.8 * B, unit: "usd", segment: "Americas" },
      { metric: "segment_revenue", value: -7, unit: "percent", kind: "change", segment: "Europe" },
      { metric: "segment_revenue", value: 640 * M, unit: "usd", segment: "Europe" },
    ],
  },
  {
    text: "Hardware revenue was $1.3 billion, flat year over year.",
    figures: [{ metric: "segment_revenue", value: 1.3 * B, unit: "usd", segment: "Hardware" }],
  },
  {
    text: "We returned $2.4 billion to shareholders through dividends and buybacks.",
    figures: [],
  },
  {
    text: "Our guidance assumes a foreign exchange headwind of about 2%.",
    figures: [],
  },
  {
    text: "For the next quarter, we anticipate revenue of approximately $3.1 billion, plus or minus 2%.",
    figures: [{ metric: "revenue", value: 3.1 * B, unit: "usd", isGuidance: true, period: "next_quarter" }],
  },
  {
    text: "Net sales were $26.4 billion and operating income was $4.1 billion.",
    figures: [
      { metric: "revenue", value: 26.4 * B, unit: "usd" },
      { metric: "operating_income", value: 4.1 * B, unit: "usd" },
    ],
  },
  {
    text: "Diluted EPS for fiscal 2025 was $7.12, as restated for the accounting change.",
    figures: [{ metric: "eps", value: 7.12, unit: "usd_per_share", period: "full_year" }],
  },
  {
    text: "Yes, so I think the demand environment remains healthy and our pipeline is strong.",
    figures: [],
  },
  {
    text: "Our next question comes from Priya Raman with Halden Securities.",
    figures: [],
  },
  {
    text: "Total revenues of $642.7 million exceeded the midpoint of our guidance range.",
    figures: [{ metric: "revenue", value: 642.7 * M, unit: "usd" }],
  },
  {
    text: "Gross margin, excluding the inventory charge, was 61.3%, down 90 basis points.",
    figures: [
      { metric: "gross_margin", value: 61.3, unit: "percent", basis: "adjusted" },
      { metric: "gross_margin", value: -90, unit: "bps", kind: "change", basis: "adjusted" },
    ],
  },
  {
    text: "We expect adjusted EBITDA in the range of $1.2 billion to $1.3 billion for fiscal 2027.",
    figures: [
      {
        metric: "ebitda",
        value: 1.25 * B,
        unit: "usd",
        isGuidance: true,
        period: "full_year",
        basis: "adjusted",
        low: 1.2 * B,
        high: 1.3 * B,
      },
    ],
  },
  {
    text: "Advertising revenue increased 11% year-over-year, driven by stronger pricing.",
    figures: [
      { metric: "segment_revenue", value: 11, unit: "percent", kind: "change", segment: "Advertising" },
    ],
  },
  {
    text: "Revenue grew mid-single digits in constant currency.",
    figures: [{ metric: "revenue", value: 5, unit: "percent", kind: "change", low: 4, high: 6 }],
  },
  {
    text: "We ended the year with 14,000 employees across 32 countries.",
    figures: [],
  },
  {
    text: "Operating cash flow was $2.2 billion and capital expenditures were $900 million.",
    figures: [
      { metric: "operating_cash_flow", value: 2.2 * B, unit: "usd" },
      { metric: "capex", value: 900 * M, unit: "usd" },
    ],
  },
  {
    text: "I think I said $1.4 billion earlier; gross profit was actually $1.5 billion.",
    figures: [{ metric: "gross_profit", value: 1.5 * B, unit: "usd" }],
  },
  {
    text: "We expect EPS of $2.30 to $2.40 next quarter, which includes about $0.05 of dilution from the acquisition.",
    figures: [
      {
        metric: "eps",
        value: 2.35,
        unit: "usd_per_share",
        isGuidance: true,
        period: "next_quarter",
        low: 2.3,
        high: 2.4,
      },
    ],
  },
  {
    text: "Total company revenue grew 8% to a record $12.4 billion, while operating income declined to $2.1 billion.",
    figures: [
      { metric: "revenue", value: 8, unit: "percent", kind: "change" },
      { metric: "revenue", value: 12.4 * B, unit: "usd" },
      { metric: "operating_income", value: 2.1 * B, unit: "usd" },
    ],
  },
  {
    text: "Excluding currency, sales rose 6%.",
    figures: [{ metric: "revenue", value: 6, unit: "percent", kind: "change", basis: null }],
  },
  {
    text: "We now expect full-year adjusted EPS of $5.10 to $5.30, up from our prior range of $4.90 to $5.10.",
    figures: [
      {
        metric: "eps",
        value: 5.2,
        unit: "usd_per_share",
        isGuidance: true,
        period: "full_year",
        basis: "adjusted",
        low: 5.1,
        high: 5.3,
      },
    ],
  },
  {
    text: "Net income attributable to shareholders was $1.3 billion, or $2.45 per diluted share.",
    figures: [
      { metric: "net_income", value: 1.3 * B, unit: "usd" },
      { metric: "eps", value: 2.45, unit: "usd_per_share" },
    ],
  },
  {
    text: "International revenue represented 38% of the total, up from 35% last year.",
    figures: [],
  },
  {
    text: "Revenue was down 2% sequentially at $910 million.",
    figures: [
      { metric: "revenue", value: -2, unit: "percent", kind: "change" },
      { metric: "revenue", value: 910 * M, unit: "usd" },
    ],
  },
  {
    text: "We expect fourth-quarter gross margin to be approximately 42%, plus or minus 50 basis points.",
    figures: [
      { metric: "gross_margin", value: 42, unit: "percent", isGuidance: true, period: "next_quarter" },
    ],
  },
  {
    text: "That's about $0.03 of EPS headwind from FX.",
    figures: [],
  },
  {
    text: "We bought back 4 million shares for $380 million.",
    figures: [{ metric: "buyback", value: 380 * M, unit: "usd" }],
  },
  {
    text: "Revenue was up nicely, high single digits.",
    figures: [{ metric: "revenue", value: 8, unit: "percent", kind: "change", low: 7, high: 9 }],
  },
  {
    // EBITDA margin is not on the metric list: nothing to take, and nothing to invent.
    text: "Second, EBITDA margin improved 150 basis points to 21.4%.",
    figures: [
      { metric: "ebitda_margin", value: 150, unit: "bps", kind: "change" },
      { metric: "ebitda_margin", value: 21.4, unit: "percent" },
    ],
  },
  {
    text: "Our cash position at quarter end was $3.2 billion.",
    figures: [{ metric: "cash", value: 3.2 * B, unit: "usd" }],
  },
];
