import { Badge } from '@chakra-ui/react';
import { type QueryStatus, queryStatusLabels } from '../../../contracts/domain/query-status';
import { type StatusPalette, statusColor } from '../../lib/status-color';

/**
 * A query status's colour, by the words of src/lib/status-color.ts where they apply (New blue) and
 * otherwise by what the status asks of the reader: open is being worked on (yellow, "in progress"),
 * waiting is the customer's turn and closed is over (gray), resolved is done (green).
 */
export function queryStatusPalette(status: QueryStatus): StatusPalette {
  switch (status) {
    case 'open':
      return statusColor('in progress');
    case 'resolved':
      return statusColor('completed');
    case 'waiting':
    case 'closed':
      return 'gray';
    default:
      return statusColor(queryStatusLabels[status]);
  }
}

export function QueryStatusBadge({ status }: { status: QueryStatus }) {
  return (
    <Badge colorPalette={queryStatusPalette(status)} variant="subtle">
      {queryStatusLabels[status]}
    </Badge>
  );
}
