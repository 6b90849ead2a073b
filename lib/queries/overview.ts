import { easternDate } from "@/common/time/eastern";
import { addDaysIso } from "@/lib/format";
import type { EarningsFilters, MaFilters } from "./calendar";

/**
 * The overview's three calendar windows for a day (US Eastern, as `easternDate`), in one place: the page
 * prefetches them on the server and the client reads them, and both must name the very same query keys.
 */
export function overviewFilters(today = easternDate(new Date())): {
  today: EarningsFilters;
  week: EarningsFilters;
  ma: MaFilters;
} {
  return {
    today: { from: today, to: today, page: 0, pageSize: 1000, sort: "date:asc" },
    week: {
      from: addDaysIso(today, 1),
      to: addDaysIso(today, 7),
      importance: 3,
      page: 0,
      pageSize: 200,
      sort: "date:asc",
    },
    ma: { from: addDaysIso(today, -30), to: today, page: 0, pageSize: 200, sort: "announced" },
  };
}
