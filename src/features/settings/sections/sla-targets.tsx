// Settings → Communication: the customer queries' SLA targets (issue 30), a first-response and a
// resolution target per priority. Entered in hours (quarter hours allowed), stored as office-hour
// minutes: the clocks count only the office hours above.
import { Input, Table } from '@chakra-ui/react';
import type { JSX } from 'react';
import { type QueryPriority, queryPriorities } from '../../../../contracts/domain/query-status';
import type { SlaTargets } from '../../../../contracts/settings';
import { SettingField } from '../section-form';

const PRIORITY_LABELS: Record<QueryPriority, string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  urgent: 'Urgent',
};
const CLOCKS = [
  ['firstResponseMinutes', 'First response'],
  ['resolutionMinutes', 'Resolution'],
] as const;

/** Minutes → hours as typed (2.5 for 150), and back to whole minutes. */
const hoursOf = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100);
const minutesOf = (hours: string) => Math.round(Number(hours) * 60);

export function SlaTargetsEditor(): JSX.Element {
  return (
    <SettingField
      field="slaTargets"
      label="Customer query SLA targets"
      helperText="Hours of office time per priority: until the first answer, and until the query is resolved. The clocks pause while a query waits for the customer."
    >
      {(control) => {
        const targets = control.value as SlaTargets | undefined;
        if (!targets) return null;
        return (
          <Table.Root size="sm" maxW="32rem" id={control.id} aria-label="Customer query SLA targets">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Priority</Table.ColumnHeader>
                {CLOCKS.map(([key, label]) => (
                  <Table.ColumnHeader key={key}>{label} (hours)</Table.ColumnHeader>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {queryPriorities.map((priority) => (
                <Table.Row key={priority}>
                  <Table.Cell>{PRIORITY_LABELS[priority]}</Table.Cell>
                  {CLOCKS.map(([key, label]) => (
                    <Table.Cell key={key}>
                      <Input
                        type="number"
                        size="sm"
                        min={0.25}
                        step={0.25}
                        maxW="7rem"
                        aria-label={`${label} target for ${PRIORITY_LABELS[priority]} queries, in hours`}
                        value={hoursOf(targets[priority][key])}
                        disabled={control.disabled}
                        onChange={(event) =>
                          control.onChange({
                            ...targets,
                            [priority]: { ...targets[priority], [key]: minutesOf(event.target.value) },
                          })
                        }
                      />
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        );
      }}
    </SettingField>
  );
}
