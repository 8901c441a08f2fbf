import { HistoryTimeline } from '../../ui/history-timeline';
import { useSellerHistory } from './api';
import { actionText, fieldLabel, formatValue } from './history-format';

const words = { actionText, fieldLabel, formatValue };

/** Every change to the seller, newest first: who, when, and each field before → after. */
export function SellerHistoryTimeline({ sellerId }: { sellerId: string }) {
  return (
    <HistoryTimeline
      history={useSellerHistory(sellerId)}
      words={words}
      emptyDescription="Every edit, status change, document and logo is listed here with who made it."
    />
  );
}
