import { Badge, Code, DataList, Stack, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../../contracts/domain/format';
import type { OfferDetail } from '../../../contracts/offers';

/** The customer's answers through the link, with the evidence kept for each (issue 30). */
export function OfferEvidence({ responses }: { responses: OfferDetail['responses'] }) {
  if (responses.length === 0) return <Text color="fg.muted">The customer has not answered yet.</Text>;
  return (
    <Stack gap="4">
      {responses.map((r) => {
        const rows: [string, React.ReactNode][] = [
          ['Typed name', r.typedName],
          ['Time', formatDateTime(r.createdAt)],
          ['Version', String(r.version)],
          ['IP address', r.ip],
          ['Browser', r.userAgent || '—'],
          [
            'SHA-256 of the version shown',
            <Code key="sha" wordBreak="break-all">
              {r.snapshotSha256}
            </Code>,
          ],
          ['Comment', r.comment || '—'],
        ];
        return (
          <Stack key={r.version} gap="2" data-testid="offer-evidence">
            <Badge
              alignSelf="flex-start"
              colorPalette={r.decision === 'accepted' ? 'green' : 'red'}
              variant="solid"
            >
              {r.decision === 'accepted' ? 'Accepted' : 'Declined'}
            </Badge>
            <DataList.Root orientation="horizontal" size="sm">
              {rows.map(([label, value]) => (
                <DataList.Item key={label}>
                  <DataList.ItemLabel>{label}</DataList.ItemLabel>
                  <DataList.ItemValue overflowWrap="anywhere">{value}</DataList.ItemValue>
                </DataList.Item>
              ))}
            </DataList.Root>
          </Stack>
        );
      })}
    </Stack>
  );
}
