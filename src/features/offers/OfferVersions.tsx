import { Button, Code, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { formatDateTime } from '../../../contracts/domain/format';
import { OFFERS_API, type OfferDetail } from '../../../contracts/offers';
import { money } from '../../lib/money';
import { getErrorMessage } from '../../services/http';
import { DownloadButton } from '../../ui/download-button';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { TableScroll } from '../../ui/table-scroll';
import { useVersionDiff } from './api';
import { OfferDiffView } from './OfferDiffView';

function VersionDiff({ offerId, version, currency }: { offerId: string; version: number; currency: string }) {
  const diff = useVersionDiff(offerId, version, version - 1);
  if (diff.isPending) return <LoadingState rows={2} label={`Loading the changes of version ${version}`} />;
  if (diff.isError)
    return <ErrorState message={getErrorMessage(diff.error)} onRetry={() => diff.refetch()} />;
  return (
    <OfferDiffView
      diff={diff.data.diff}
      currency={currency}
      label={`Changes in version ${version} against version ${version - 1}`}
    />
  );
}

/** The sent versions (frozen), newest last, and what each changed against the one before. */
export function OfferVersions({ offer }: { offer: OfferDetail }) {
  const latest = offer.versions.at(-1)?.version ?? 0;
  // Until the user picks a version, the newest one's changes show (also right after a new one is sent).
  const [chosen, setChosen] = useState<number | null>(null);
  const shown = chosen ?? (latest >= 2 ? latest : 0);
  if (offer.versions.length === 0) return <Text color="fg.muted">Nothing was sent yet.</Text>;
  return (
    <Stack gap="3">
      <TableScroll label="Versions">
        <Table.Root size="sm" aria-label="Versions">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Version</Table.ColumnHeader>
              <Table.ColumnHeader>Sent</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
              <Table.ColumnHeader>Valid until</Table.ColumnHeader>
              <Table.ColumnHeader>Opened</Table.ColumnHeader>
              <Table.ColumnHeader>SHA-256</Table.ColumnHeader>
              <Table.ColumnHeader>Changes</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {offer.versions.map((v) => (
              <Table.Row key={v.version}>
                <Table.Cell>{v.version}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">
                  {formatDateTime(v.sentAt)}
                  <Text fontSize="xs" color="fg.muted">
                    by {v.sentByName}
                  </Text>
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  {money(v.totalMinor, v.currency)}
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{v.validUntil}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">
                  {v.openedAt ? formatDateTime(v.openedAt) : 'Not yet'}
                </Table.Cell>
                <Table.Cell>
                  <Code title={v.snapshotSha256}>{v.snapshotSha256.slice(0, 12)}…</Code>{' '}
                  <DownloadButton
                    size="2xs"
                    path={`${OFFERS_API}/${offer.id}/versions/${v.version}/pdf`}
                    fileName={`OFR-${offer.number}-v${v.version}.pdf`}
                  >
                    PDF of version {v.version}
                  </DownloadButton>
                </Table.Cell>
                <Table.Cell>
                  {v.version >= 2 ? (
                    <Button
                      size="xs"
                      variant="outline"
                      aria-pressed={shown === v.version}
                      onClick={() => setChosen(shown === v.version ? 0 : v.version)}
                    >
                      {shown === v.version ? 'Hide' : 'Show'} changes of version {v.version}
                    </Button>
                  ) : (
                    'First version'
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </TableScroll>
      {shown >= 2 ? (
        <Stack gap="2">
          <Text fontWeight="medium">
            Version {shown} against version {shown - 1}
          </Text>
          <VersionDiff
            offerId={offer.id}
            version={shown}
            currency={offer.versions.find((v) => v.version === shown)?.currency ?? offer.currency ?? 'EUR'}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
