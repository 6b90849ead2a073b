import { DealParties } from "@/components/calendar/deal-parties";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { ScrollTable, Td, Th, Tr } from "@/components/ui/table";
import { formatDate, formatMoney } from "@/lib/format";
import type { MaRow } from "@/lib/schemas/calendar";

/** A short list of deals (a company's, or the latest few): announced, who buys whom, size, status. */
export function DealsTable({
  deals,
  caption,
  className,
  partiesClassName,
}: {
  deals: readonly MaRow[];
  caption: string;
  className?: string;
  partiesClassName?: string;
}) {
  return (
    <ScrollTable caption={caption} className={className}>
      <thead>
        <tr>
          <Th>Announced</Th>
          <Th>Acquirer → target</Th>
          <Th numeric>Size</Th>
          <Th>Status</Th>
        </tr>
      </thead>
      <tbody>
        {deals.map((r) => (
          <Tr key={r.id}>
            <Td>{formatDate(r.announcedDate)}</Td>
            <Td className={cn(partiesClassName)}>
              <DealParties deal={r} />
            </Td>
            <Td numeric>{formatMoney(r.dealSize, r.currency ?? "USD")}</Td>
            <Td>{r.dealStatus ? <Badge>{r.dealStatus}</Badge> : null}</Td>
          </Tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
