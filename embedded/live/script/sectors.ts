/**
 * Sector vocabulary for call scripts. Templates use `{slot}` placeholders filled by the generator:
 * `{short}` company short name, `{seg}` / `{seg2}` business lines, `{trend}` a tone-dependent verb phrase
 * ("accelerated" on a beat, "softened" on a miss), `{adj}` a tone-dependent adjective, `{pct}` / `{pct2}` small
 * percentages, `{quarter}` ("third quarter"), `{year}`.
 * Themes are neutral on purpose: tone comes from the slots and the framing sentences, so one theme reads right
 * in a strong quarter and in a weak one.
 */

export interface SectorTheme {
  topic: string;
  remarks: readonly string[];
  questions: readonly string[];
  answers: readonly string[];
}

export interface SectorProfile {
  /** Lower-case fragments matched against the company's sector / industry names. */
  match: readonly string[];
  segments: readonly string[];
  themes: readonly SectorTheme[];
}

const technology: SectorProfile = {
  match: ["tech", "software", "semiconductor", "hardware", "information"],
  segments: [
    "data center",
    "cloud platform",
    "enterprise software",
    "edge devices",
    "networking",
    "automotive",
  ],
  themes: [
    {
      topic: "AI infrastructure demand",
      remarks: [
        "Demand for AI infrastructure {trend} this quarter, and our {seg} business was at the center of it.",
        "Customers are moving from pilots to production deployments, and that shift shows up in larger, multi-year commitments.",
        "We shipped our next-generation platform to {pct} more customers than a year ago, and early performance data is {adj}.",
      ],
      questions: [
        "I wanted to ask about AI demand. How much visibility do you have into orders for the next two or three quarters, and are customers still supply constrained?",
        "Could you help us think about how much of the {seg} growth is coming from AI workloads versus traditional refresh cycles?",
      ],
      answers: [
        "Our visibility is better than it has been at any point in the last two years, with backlog coverage extending well into next year.",
        "Supply is improving, but we are still allocating capacity on some of our highest-end products.",
        "Roughly half of the growth in {seg} is tied directly to AI workloads, and the rest is a healthy refresh cycle that we think has further to run.",
      ],
    },
    {
      topic: "recurring revenue",
      remarks: [
        "Subscription and recurring revenue now represent more than {pct2} of our total, up from a year ago.",
        "Net revenue retention {trend}, which tells us customers are expanding their use of the platform once they adopt it.",
        "We added a record number of customers spending more than $1 million a year with us.",
      ],
      questions: [
        "On net retention, can you unpack what you are seeing in expansion rates versus churn, particularly in the mid-market?",
        "How should we think about the mix shift toward subscription and what that means for reported revenue growth next year?",
      ],
      answers: [
        "Gross churn was stable, so the movement you see in net retention is almost entirely expansion behaviour.",
        "Mid-market customers are taking a little longer to sign, but once they do, they expand faster than our enterprise cohort.",
        "The transition creates a modest headwind to reported growth in the near term, but it improves the quality and predictability of the revenue.",
      ],
    },
    {
      topic: "gross margin",
      remarks: [
        "Gross margin {trend}, reflecting mix, pricing discipline and the cost actions we took earlier in the year.",
        "We continue to invest in research and development at a pace that keeps our roadmap ahead of the market.",
      ],
      questions: [
        "Could you walk us through the puts and takes on gross margin from here, especially as new products ramp?",
        "How much of the margin change was driven by mix versus one-time items?",
      ],
      answers: [
        "New product ramps typically carry lower margins in the first two quarters, so we expect a modest dilution before yields improve.",
        "Mix was the biggest driver; one-time items were less than half a point in the quarter.",
      ],
    },
    {
      topic: "enterprise spending",
      remarks: [
        "Enterprise IT budgets remain scrutinized, and deal cycles {trend} compared with last quarter.",
        "Even so, our pipeline grew {pct} year over year, led by large transformation projects.",
      ],
      questions: [
        "What are you hearing from CIOs about budgets for next year, and are you seeing any elongation in deal cycles?",
      ],
      answers: [
        "CIOs tell us budgets are flat to slightly up, with spending concentrated on consolidation and automation projects where we are well positioned.",
        "We saw some elongation in deals above $5 million, but conversion rates are holding up.",
      ],
    },
  ],
};

const healthcare: SectorProfile = {
  match: ["health", "pharma", "biotech", "medical", "drug", "life science"],
  segments: ["pharmaceuticals", "medical devices", "diagnostics", "specialty care", "biologics", "services"],
  themes: [
    {
      topic: "pipeline progress",
      remarks: [
        "Our pipeline {trend} this quarter, with two programs advancing into late-stage trials.",
        "We also received regulatory approval for an expanded indication in our {seg} franchise.",
        "We expect several important data readouts over the next twelve months.",
      ],
      questions: [
        "Can you give us more detail on the timing of the late-stage readouts, and what you would consider a clinically meaningful result?",
        "How are you thinking about capital allocation between the pipeline and business development?",
      ],
      answers: [
        "We expect the first readout in the second half of next year, and the trial is powered to show a meaningful difference on the primary endpoint.",
        "Internal programs remain our first priority, but we have the balance sheet to pursue targeted deals that complement our {seg} franchise.",
      ],
    },
    {
      topic: "procedure and patient volumes",
      remarks: [
        "Patient volumes {trend} across our {seg} business, and utilization trends remain {adj}.",
        "Our newer launches grew {pct} sequentially as physician adoption broadened.",
      ],
      questions: [
        "On utilization, are you seeing any normalization in volumes, or do you think the current level is sustainable?",
      ],
      answers: [
        "We think a good part of the current volume is structural, driven by an aging population and more patients entering care.",
        "We are planning conservatively and would not be surprised by some moderation in the growth rate next year.",
      ],
    },
    {
      topic: "pricing and reimbursement",
      remarks: [
        "The pricing environment remains {adj}, and we continue to work closely with payers on access.",
        "Reimbursement changes had a limited impact on the quarter, in line with what we outlined last year.",
      ],
      questions: [
        "How should we think about net pricing next year given the policy changes, and what is embedded in your outlook?",
      ],
      answers: [
        "Our outlook assumes a low single-digit net price decline, which we expect to offset with volume growth.",
        "We have already reflected the policy changes we know about, and we will update you as the rules are finalized.",
      ],
    },
  ],
};

const financials: SectorProfile = {
  match: ["financ", "bank", "insurance", "capital markets", "asset management", "credit"],
  segments: [
    "consumer banking",
    "commercial lending",
    "wealth management",
    "markets",
    "payments",
    "insurance",
  ],
  themes: [
    {
      topic: "net interest income",
      remarks: [
        "Net interest income {trend}, as deposit costs stabilized and loan yields held up.",
        "Average loans grew {pct} year over year, led by {seg}.",
      ],
      questions: [
        "Can you talk about the trajectory of net interest margin from here, and what you are assuming for rate cuts?",
        "How competitive is the deposit market right now, and how much further can deposit betas move?",
      ],
      answers: [
        "Our outlook assumes two rate cuts over the next year, and we expect the margin to be broadly stable through that path.",
        "Deposit competition has eased compared with last year, and we think most of the repricing is now behind us.",
      ],
    },
    {
      topic: "credit quality",
      remarks: [
        "Credit quality remains {adj}, with net charge-offs within our expected range.",
        "We added modestly to reserves, reflecting loan growth rather than a change in our economic outlook.",
      ],
      questions: [
        "On credit, are you seeing any pockets of stress, particularly in commercial real estate or the consumer book?",
      ],
      answers: [
        "Commercial real estate remains the area we watch most closely, but the exposure is well reserved and shrinking.",
        "The consumer book is performing in line with pre-pandemic levels, which is what we expected.",
      ],
    },
    {
      topic: "fee income and capital",
      remarks: [
        "Fee income {trend}, helped by activity in {seg} and higher assets under management.",
        "Our capital ratios remain well above regulatory requirements, and we returned capital through dividends and buybacks.",
      ],
      questions: ["How are you thinking about the pace of buybacks given where capital ratios are today?"],
      answers: [
        "We expect to continue buying back shares at roughly the current pace while keeping a comfortable buffer above our targets.",
        "If we see attractive opportunities to deploy capital into organic growth, that will come first.",
      ],
    },
  ],
};

const consumerCyclical: SectorProfile = {
  match: [
    "consumer cyclical",
    "consumer discretionary",
    "retail",
    "apparel",
    "auto",
    "travel",
    "leisure",
    "restaurant",
    "home",
  ],
  segments: ["stores", "e-commerce", "wholesale", "international", "loyalty", "services"],
  themes: [
    {
      topic: "consumer demand",
      remarks: [
        "Consumer demand {trend} through the quarter, and traffic in our {seg} channel was {adj}.",
        "Comparable sales were up {pct}, with strength in our core categories.",
        "Our loyalty members continue to shop more often and spend more per visit.",
      ],
      questions: [
        "How did the cadence of demand look through the quarter and into the first weeks of this one?",
        "Are you seeing any signs of trade-down or more value-seeking behaviour from your customers?",
      ],
      answers: [
        "Demand was steady through the quarter, and the first weeks of the current quarter are consistent with our outlook.",
        "Customers are more deliberate and responsive to value, but they are still spending on the categories they care about.",
      ],
    },
    {
      topic: "inventory and promotions",
      remarks: [
        "Inventories are clean and down {pct} from a year ago, which gives us flexibility heading into the next season.",
        "The promotional environment is {adj}, and we remain disciplined about where we invest in price.",
      ],
      questions: [
        "Can you talk about the promotional environment and how you are planning markdowns for the holiday period?",
      ],
      answers: [
        "We are planning promotions roughly in line with last year, and our lean inventory position limits the need for clearance.",
        "Where competitors get aggressive, we prefer to protect the brand rather than chase volume.",
      ],
    },
    {
      topic: "digital growth",
      remarks: [
        "Our {seg} business grew {pct}, and digital now accounts for a larger share of sales than ever.",
        "Investments in fulfilment have lowered delivery times and improved digital margins.",
      ],
      questions: ["How do digital margins compare with stores today, and where do you see that going?"],
      answers: [
        "The gap between digital and store margins has narrowed significantly, and we expect it to keep closing as fulfilment scales.",
      ],
    },
  ],
};

const consumerDefensive: SectorProfile = {
  match: ["consumer defensive", "consumer staples", "food", "beverage", "household", "tobacco", "grocery"],
  segments: ["snacks", "beverages", "household products", "personal care", "international", "foodservice"],
  themes: [
    {
      topic: "price and volume",
      remarks: [
        "Organic sales grew {pct}, with volumes that {trend} as pricing normalized.",
        "Our brands held or gained share in most of our {seg} categories.",
      ],
      questions: [
        "How should we think about the balance between price and volume next year, and how elastic has demand been?",
        "Are you seeing any increase in private label competition in your core categories?",
      ],
      answers: [
        "We expect volume to be the main driver of growth next year, with pricing contributing a point or so.",
        "Elasticities are running close to historical levels, which gives us confidence in our pricing plans.",
        "Private label share has been broadly stable in our categories, and our innovation pipeline keeps us differentiated.",
      ],
    },
    {
      topic: "input costs",
      remarks: [
        "Commodity and packaging costs were {adj} in the quarter, and our productivity programs offset most of the inflation.",
        "We continue to invest behind our brands, with advertising up {pct} year over year.",
      ],
      questions: ["What are you assuming for commodity inflation next year, and how much is already hedged?"],
      answers: [
        "We are roughly sixty percent hedged for next year, and we expect low single-digit inflation on the remainder.",
      ],
    },
  ],
};

const industrials: SectorProfile = {
  match: ["industrial", "aerospace", "defense", "machinery", "transport", "construction", "engineering"],
  segments: [
    "aerospace",
    "automation",
    "aftermarket services",
    "building systems",
    "transportation",
    "energy solutions",
  ],
  themes: [
    {
      topic: "orders and backlog",
      remarks: [
        "Orders {trend} in the quarter, and backlog ended at a record level.",
        "Our {seg} segment saw particularly {adj} demand, with book-to-bill above one.",
      ],
      questions: [
        "Can you talk about order trends by end market, and how much of the backlog converts over the next twelve months?",
        "Is there any sign of customers pulling forward orders ahead of price increases?",
      ],
      answers: [
        "About two thirds of the backlog converts within twelve months, which gives us good visibility into next year.",
        "We have not seen meaningful pull-forward; the order strength reflects real project activity.",
      ],
    },
    {
      topic: "supply chain and margins",
      remarks: [
        "Supply chain conditions continue to improve, and on-time delivery {trend}.",
        "Segment margins expanded in {seg} on better pricing and productivity.",
      ],
      questions: ["How much margin expansion should we expect as supply chain inefficiencies roll off?"],
      answers: [
        "We see another fifty to one hundred basis points of expansion over the next year from productivity and mix.",
        "Some of that will be reinvested in capacity, but the direction is clearly up.",
      ],
    },
    {
      topic: "aftermarket",
      remarks: ["Our aftermarket business grew {pct} and remains a stable, high-margin source of revenue."],
      questions: ["How durable is the aftermarket growth you are seeing?"],
      answers: [
        "The installed base keeps growing and utilization is high, so we expect aftermarket growth to remain healthy.",
      ],
    },
  ],
};

const energy: SectorProfile = {
  match: ["energy", "oil", "gas", "petroleum", "refin", "pipeline", "midstream"],
  segments: ["upstream", "refining", "midstream", "chemicals", "low-carbon solutions", "LNG"],
  themes: [
    {
      topic: "production",
      remarks: [
        "Production {trend}, averaging above the midpoint of our range.",
        "Our {seg} assets continue to deliver {adj} returns at current commodity prices.",
      ],
      questions: [
        "Can you talk about your production outlook and how sensitive your plan is to lower commodity prices?",
      ],
      answers: [
        "Our plan is built to generate free cash flow well below today's prices, so we do not expect to change activity levels.",
        "We would rather protect returns than chase volume if prices weaken.",
      ],
    },
    {
      topic: "capital discipline",
      remarks: [
        "We remain disciplined on capital spending and returned a significant share of free cash flow to shareholders.",
        "Unit costs declined {pct} year over year as efficiency gains took hold.",
      ],
      questions: ["How are you thinking about the split between buybacks, dividends and debt reduction?"],
      answers: [
        "We intend to return at least half of free cash flow to shareholders, with the balance strengthening the balance sheet.",
      ],
    },
    {
      topic: "margins",
      remarks: [
        "Margins in {seg} were {adj}, reflecting market conditions and strong operating reliability.",
      ],
      questions: ["What are you seeing in margins so far this quarter?"],
      answers: [
        "Margins so far this quarter are a little below last quarter's average, but still well above historical levels.",
      ],
    },
  ],
};

const utilities: SectorProfile = {
  match: ["utilit", "electric", "water", "power"],
  segments: ["regulated electric", "gas distribution", "transmission", "renewables", "water"],
  themes: [
    {
      topic: "load growth",
      remarks: [
        "Load growth {trend}, driven by new data centers and industrial customers in our service territory.",
        "We now expect weather-normalized sales to grow {pct} annually over the next five years.",
      ],
      questions: [
        "How firm are the data center commitments in your forecast, and how are you protecting other customers from the cost?",
      ],
      answers: [
        "The load in our forecast is backed by signed agreements with minimum demand charges, which protect our other customers.",
      ],
    },
    {
      topic: "capital plan",
      remarks: [
        "We increased our five-year capital plan, supporting rate base growth of about {pct} a year.",
        "Our pending rate case is progressing on schedule.",
      ],
      questions: ["How do you plan to finance the higher capital plan, and is new equity needed?"],
      answers: [
        "The plan is financed largely with operating cash flow and debt, with modest equity needs through our existing programs.",
      ],
    },
  ],
};

const realEstate: SectorProfile = {
  match: ["real estate", "reit", "property"],
  segments: [
    "industrial properties",
    "office",
    "retail centers",
    "residential",
    "data centers",
    "life science space",
  ],
  themes: [
    {
      topic: "leasing",
      remarks: [
        "Leasing activity {trend}, and occupancy ended the quarter at {pct2}.",
        "Cash rent spreads on renewals in our {seg} portfolio were {adj}.",
      ],
      questions: ["Can you talk about leasing spreads and how much mark-to-market is left in the portfolio?"],
      answers: [
        "We estimate the portfolio is still about fifteen percent below market rents, which supports growth for several years.",
      ],
    },
    {
      topic: "capital recycling",
      remarks: ["We sold non-core assets and recycled the proceeds into higher-growth {seg}."],
      questions: ["What are you seeing in transaction markets and cap rates today?"],
      answers: ["Transaction volumes are recovering, and cap rates have stabilized for high-quality assets."],
    },
  ],
};

const materials: SectorProfile = {
  match: ["material", "chemical", "metal", "mining", "steel", "paper", "packaging"],
  segments: ["specialty chemicals", "packaging", "metals", "coatings", "agricultural products"],
  themes: [
    {
      topic: "volumes and pricing",
      remarks: [
        "Volumes {trend} in the quarter, while pricing remained {adj} in {seg}.",
        "We continue to manage capacity tightly to match demand.",
      ],
      questions: [
        "Where are you seeing the most pricing pressure, and how are volumes trending into next quarter?",
      ],
      answers: [
        "Pricing pressure is concentrated in commodity grades; our specialty products have held price well.",
      ],
    },
    {
      topic: "costs",
      remarks: [
        "Raw material and energy costs were lower year over year, and we captured {pct} in productivity savings.",
      ],
      questions: ["How much of the cost savings are structural?"],
      answers: [
        "Most of the savings come from footprint changes and are structural, so they will stay with us as volumes recover.",
      ],
    },
  ],
};

const communication: SectorProfile = {
  match: ["communication", "media", "telecom", "entertainment", "advertising", "internet"],
  segments: ["wireless", "broadband", "advertising", "streaming", "content", "enterprise connectivity"],
  themes: [
    {
      topic: "subscribers",
      remarks: [
        "Subscriber growth {trend}, with {pct} more net additions in {seg} than a year ago.",
        "Churn remained {adj}, and average revenue per user increased.",
      ],
      questions: [
        "How are you thinking about subscriber growth versus ARPU, and how competitive is the market right now?",
      ],
      answers: [
        "We are focused on profitable growth, and we will not chase subscribers with aggressive promotions.",
      ],
    },
    {
      topic: "advertising",
      remarks: ["Advertising revenue {trend}, helped by better measurement and new ad formats."],
      questions: ["What are advertisers telling you about budgets for next year?"],
      answers: [
        "Advertisers are cautious but shifting budgets toward channels with measurable returns, which favours us.",
      ],
    },
  ],
};

export const SECTOR_PROFILES: readonly SectorProfile[] = [
  technology,
  healthcare,
  financials,
  consumerDefensive,
  consumerCyclical,
  industrials,
  energy,
  utilities,
  realEstate,
  materials,
  communication,
];

/** Industrials is the broadest vocabulary, so it stands in for sectors nobody listed. */
export function sectorProfileFor(...names: readonly string[]): SectorProfile {
  const haystack = names.join(" ").toLowerCase();
  return SECTOR_PROFILES.find((p) => p.match.some((m) => haystack.includes(m))) ?? industrials;
}

/** Fictional research firms: never real brokers. */
export const ANALYST_FIRMS: readonly string[] = [
  "Morgan Ridge Securities",
  "Halvorsen & Co.",
  "Bayfield Capital Markets",
  "Crestline Research",
  "Northgate Partners",
  "Sterling Point Advisors",
  "Pinecrest Securities",
  "Aldridge Brothers",
  "Larchmont Capital",
  "Westbury Research",
  "Granite Peak Securities",
  "Kestrel Equity Research",
  "Harbor Lane Capital",
  "Ashford Wells",
];

export const FIRST_NAMES: readonly string[] = [
  "Priya",
  "Marcus",
  "Elena",
  "Jonah",
  "Aisha",
  "Tomas",
  "Rachel",
  "Devin",
  "Mei",
  "Samuel",
  "Lucia",
  "Owen",
  "Farah",
  "Gabriel",
  "Hannah",
  "Kenji",
  "Nadia",
  "Victor",
  "Chloe",
  "Rafael",
  "Ingrid",
  "Theo",
  "Yusuf",
  "Claire",
];

export const LAST_NAMES: readonly string[] = [
  "Okafor",
  "Lindqvist",
  "Brennan",
  "Castellano",
  "Whitaker",
  "Nakamura",
  "Delacroix",
  "Haddad",
  "Sorensen",
  "Abernathy",
  "Quintero",
  "Rasmussen",
  "Ferreira",
  "Kowalski",
  "Mbeki",
  "Thornton",
  "Villanueva",
  "Ashworth",
  "Petrakis",
  "Gallagher",
  "Iyer",
  "Holloway",
  "Marchetti",
  "Osei",
];

export const OPERATOR_NAMES: readonly string[] = ["Julia", "Kevin", "Sarah", "Michelle", "Daniel", "Amanda"];
