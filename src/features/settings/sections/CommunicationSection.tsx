// Settings → Communication (issue 29 §3): the sender every mail carries, the SMTP server or the outbox
// ("Send a test mail" shows what the mail server answered, for the saved fields or the unsaved draft),
// which notifications each role gets in-app, by mail, both or not at all, and the chat's office hours
// per weekday with holidays (outside them the bot says when a person will answer), and the customer
// queries' SLA targets, counted in those hours.
import {
  Alert,
  Button,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  Stack,
  Switch,
  Table,
  Text,
} from '@chakra-ui/react';
import { Plus, Send, Trash2 } from 'lucide-react';
import { type JSX, useState } from 'react';
import {
  notificationChannels,
  notificationTypes,
  type OfficeHours,
  SECRET_SET,
  type weekdays,
  weekdaysFrom,
} from '../../../../contracts/settings';
import { useClientSettings } from '../../../services/client-settings';
import { getErrorMessage, http } from '../../../services/http';
import { SectionFrame } from '../SectionFrame';
import { type FieldControl, type SectionForm, SettingField } from '../section-form';
import { SlaTargetsEditor } from './sla-targets';

const ROLES = ['Admin', 'Staff', 'Seller'] as const;
const CHANNEL_LABELS: Record<(typeof notificationChannels)[number], string> = {
  'in-app': 'In-app',
  mail: 'Mail',
  both: 'In-app and mail',
  none: 'None',
};
const TYPE_LABELS: Record<(typeof notificationTypes)[number], string> = {
  task: 'Tasks (exports, imports)',
  'help-chat': 'Help chats',
  'missed-call': 'Missed calls',
  'customer-query': 'Customer queries',
  offer: 'Offers',
  order: 'Orders',
  invoice: 'Invoices',
  auction: 'Auctions',
};
const dayLabel = (day: string) => day.charAt(0).toUpperCase() + day.slice(1);
const SMTP_DRAFT_FIELDS = [
  'senderName',
  'senderAddress',
  'replyTo',
  'transport',
  'smtpHost',
  'smtpPort',
  'smtpSecure',
  'smtpUser',
  'smtpPassword',
] as const;

export default function CommunicationSection(): JSX.Element {
  return (
    <SectionFrame
      section="communication"
      description="Who mail comes from and how it is sent, which notifications each role gets where, and when a person answers the chat."
    >
      {(form) => <CommunicationFields form={form} />}
    </SectionFrame>
  );
}

function TextInput({ control, type = 'text' }: { control: FieldControl; type?: string }) {
  return (
    <Input
      id={control.id}
      type={type}
      maxW="28rem"
      value={String(control.value ?? '')}
      disabled={control.disabled}
      onChange={(event) => control.onChange(event.target.value)}
    />
  );
}

function CommunicationFields({ form }: { form: SectionForm }) {
  const transport = form.value<string>('transport');
  const fromEnvironment = Boolean(form.field('smtpHost')?.fromEnvironment);
  const smtpOff = transport !== 'smtp' || fromEnvironment;
  return (
    <Stack gap="6">
      <Stack gap="4" as="fieldset">
        <Text as="legend" fontWeight="semibold" mb="2">
          Sender
        </Text>
        <SettingField field="senderName" label="Sender name">
          {(control) => <TextInput control={control} />}
        </SettingField>
        <SettingField field="senderAddress" label="Sender address">
          {(control) => <TextInput control={control} type="email" />}
        </SettingField>
        <SettingField field="replyTo" label="Reply-to address" helperText="Empty: replies go to the sender.">
          {(control) => <TextInput control={control} type="email" />}
        </SettingField>
      </Stack>

      <Stack gap="4" as="fieldset">
        <Text as="legend" fontWeight="semibold" mb="2">
          Delivery
        </Text>
        {fromEnvironment ? (
          <Alert.Root status="info">
            <Alert.Indicator />
            <Alert.Title>The mail server is set in the server's environment (SMTP_URL).</Alert.Title>
          </Alert.Root>
        ) : null}
        <SettingField field="transport" label="Send mail">
          {(control) => (
            <NativeSelect.Root disabled={control.disabled} maxW="28rem">
              <NativeSelect.Field
                id={control.id}
                value={String(control.value ?? 'outbox')}
                onChange={(event) => control.onChange(event.target.value)}
              >
                <option value="outbox">To the outbox (files on the server)</option>
                <option value="smtp">Through an SMTP server</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          )}
        </SettingField>
        <SmtpFields off={smtpOff} />
        <TestMail form={form} />
      </Stack>

      <ChannelsGrid />
      <OfficeHoursEditor />
      <HolidaysEditor />
      <SlaTargetsEditor />
    </Stack>
  );
}

function SmtpFields({ off }: { off: boolean }) {
  const wrap = (control: FieldControl) => ({ ...control, disabled: control.disabled || off });
  return (
    // No dimming of the group: the disabled inputs show it, and faded helper text would fail contrast.
    <Stack gap="4">
      <SettingField field="smtpHost" label="SMTP host">
        {(control) => <TextInput control={wrap(control)} />}
      </SettingField>
      <SettingField field="smtpPort" label="SMTP port">
        {(control) => (
          <Input
            id={control.id}
            type="number"
            maxW="10rem"
            min={1}
            max={65535}
            value={String(control.value ?? '')}
            disabled={control.disabled || off}
            onChange={(event) => control.onChange(Number(event.target.value))}
          />
        )}
      </SettingField>
      <SettingField field="smtpSecure" label="TLS from the start (port 465)">
        {(control) => (
          <Switch.Root
            checked={Boolean(control.value)}
            disabled={control.disabled || off}
            onCheckedChange={(details) => control.onChange(details.checked)}
          >
            <Switch.HiddenInput id={control.id} />
            <Switch.Control />
          </Switch.Root>
        )}
      </SettingField>
      <SettingField field="smtpUser" label="SMTP user">
        {(control) => <TextInput control={wrap(control)} />}
      </SettingField>
      <SettingField
        field="smtpPassword"
        label="SMTP password"
        helperText="Never shown again once saved; type a new one to change it."
      >
        {(control) => (
          <Input
            id={control.id}
            type="password"
            autoComplete="new-password"
            maxW="28rem"
            placeholder={control.value === SECRET_SET ? 'Saved — type to replace' : ''}
            value={control.value === SECRET_SET ? '' : String(control.value ?? '')}
            disabled={control.disabled || off}
            onChange={(event) => control.onChange(event.target.value)}
          />
        )}
      </SettingField>
    </Stack>
  );
}

interface TestMailResult {
  ok: boolean;
  message: string;
  transport: 'outbox' | 'smtp';
}

/** Sends the draft's sender and SMTP fields (the saved ones where unchanged) and shows the server's answer. */
function TestMail({ form }: { form: SectionForm }) {
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestMailResult | null>(null);
  if (form.isSeller || !form.field('transport')?.editable) return null;
  const send = async () => {
    setSending(true);
    setResult(null);
    const draft = Object.fromEntries(SMTP_DRAFT_FIELDS.map((field) => [field, form.value(field)]));
    try {
      const answer = await http.post<TestMailResult>('/api/v1/settings/communication/test-mail', draft, {
        silent: true,
      });
      setResult(answer.data);
    } catch (error) {
      setResult({ ok: false, message: getErrorMessage(error), transport: 'outbox' });
    } finally {
      setSending(false);
    }
  };
  return (
    <Stack gap="2" align="start">
      <Button variant="outline" size="sm" loading={sending} onClick={() => void send()}>
        <Send /> Send a test mail
      </Button>
      <Text fontSize="sm" color="fg.muted">
        Goes to your own address, with the fields above (saved or not).
      </Text>
      {result ? (
        <Alert.Root status={result.ok ? 'success' : 'error'} role="status">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{result.ok ? 'The mail was sent' : 'The mail was not sent'}</Alert.Title>
            <Alert.Description fontFamily="mono" fontSize="sm">
              {result.message}
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}
    </Stack>
  );
}

type ChannelMap = Record<string, Record<string, string>>;

function ChannelsGrid() {
  return (
    <SettingField field="notificationChannels" label="Notifications by role">
      {(control) => {
        const map = (control.value as ChannelMap | undefined) ?? {};
        const set = (role: string, type: string, channel: string) =>
          control.onChange({ ...map, [role]: { ...map[role], [type]: channel } });
        return (
          <Table.ScrollArea borderWidth="1px" rounded="md" id={control.id}>
            <Table.Root size="sm">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Notification</Table.ColumnHeader>
                  {ROLES.map((role) => (
                    <Table.ColumnHeader key={role}>{role}</Table.ColumnHeader>
                  ))}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {notificationTypes.map((type) => (
                  <Table.Row key={type}>
                    <Table.Cell>{TYPE_LABELS[type]}</Table.Cell>
                    {ROLES.map((role) => (
                      <Table.Cell key={role}>
                        <NativeSelect.Root size="sm" disabled={control.disabled} minW="9rem">
                          <NativeSelect.Field
                            aria-label={`${TYPE_LABELS[type]} for ${role}`}
                            value={map[role]?.[type] ?? 'in-app'}
                            onChange={(event) => set(role, type, event.target.value)}
                          >
                            {notificationChannels.map((channel) => (
                              <option key={channel} value={channel}>
                                {CHANNEL_LABELS[channel]}
                              </option>
                            ))}
                          </NativeSelect.Field>
                          <NativeSelect.Indicator />
                        </NativeSelect.Root>
                      </Table.Cell>
                    ))}
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        );
      }}
    </SettingField>
  );
}

function OfficeHoursEditor() {
  // The week starts on Localization's first day of the week.
  const week = weekdaysFrom(useClientSettings().data?.weekStart ?? 'monday');
  return (
    <SettingField
      field="officeHours"
      label="Chat office hours"
      helperText="In the marketplace's time zone (Localization). Outside them the bot tells customers when a person will answer."
    >
      {(control) => {
        const hours = control.value as OfficeHours | undefined;
        if (!hours) return null;
        const setDay = (day: (typeof weekdays)[number], spans: OfficeHours[typeof day]) =>
          control.onChange({ ...hours, [day]: spans });
        return (
          <Stack gap="2" id={control.id} role="group" aria-label="Chat office hours">
            {week.map((day) => {
              const spans = hours[day] ?? [];
              return (
                <HStack key={day} gap="3" align="start" wrap="wrap">
                  <Text w="7rem" pt="1.5" fontWeight="medium">
                    {dayLabel(day)}
                  </Text>
                  <Stack gap="2" flex="1">
                    {spans.length === 0 ? (
                      <Text pt="1.5" color="fg.muted">
                        Closed
                      </Text>
                    ) : null}
                    {spans.map((span, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: spans have no id; their order is their identity
                      <HStack key={index} gap="2">
                        <Input
                          type="time"
                          size="sm"
                          maxW="8rem"
                          aria-label={`${dayLabel(day)} span ${index + 1} from`}
                          value={span.from}
                          disabled={control.disabled}
                          onChange={(event) =>
                            setDay(
                              day,
                              spans.map((other, at) =>
                                at === index ? { ...other, from: event.target.value } : other,
                              ),
                            )
                          }
                        />
                        <Text>–</Text>
                        <Input
                          type="time"
                          size="sm"
                          maxW="8rem"
                          aria-label={`${dayLabel(day)} span ${index + 1} to`}
                          value={span.to}
                          disabled={control.disabled}
                          onChange={(event) =>
                            setDay(
                              day,
                              spans.map((other, at) =>
                                at === index ? { ...other, to: event.target.value } : other,
                              ),
                            )
                          }
                        />
                        <IconButton
                          size="sm"
                          variant="ghost"
                          aria-label={`Remove ${dayLabel(day)} span ${index + 1}`}
                          disabled={control.disabled}
                          onClick={() =>
                            setDay(
                              day,
                              spans.filter((_, at) => at !== index),
                            )
                          }
                        >
                          <Trash2 />
                        </IconButton>
                      </HStack>
                    ))}
                  </Stack>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={control.disabled || spans.length >= 4}
                    aria-label={`Add hours on ${dayLabel(day)}`}
                    onClick={() => setDay(day, [...spans, { from: '09:00', to: '18:00' }])}
                  >
                    <Plus /> Add hours
                  </Button>
                </HStack>
              );
            })}
          </Stack>
        );
      }}
    </SettingField>
  );
}

function HolidaysEditor() {
  const [day, setDay] = useState('');
  return (
    <SettingField field="holidays" label="Holidays" helperText="Days nobody answers the chat.">
      {(control) => {
        const holidays = (control.value as string[] | undefined) ?? [];
        return (
          <Stack gap="2" id={control.id} role="group" aria-label="Holidays">
            {holidays.length === 0 ? <Text color="fg.muted">No holidays.</Text> : null}
            {[...holidays].sort().map((holiday) => (
              <HStack key={holiday} gap="2">
                <Text minW="8rem">{holiday}</Text>
                <IconButton
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove the holiday ${holiday}`}
                  disabled={control.disabled}
                  onClick={() => control.onChange(holidays.filter((other) => other !== holiday))}
                >
                  <Trash2 />
                </IconButton>
              </HStack>
            ))}
            <HStack gap="2">
              <Input
                type="date"
                size="sm"
                maxW="12rem"
                aria-label="New holiday"
                value={day}
                disabled={control.disabled}
                onChange={(event) => setDay(event.target.value)}
              />
              <Button
                size="sm"
                variant="outline"
                disabled={control.disabled || !day || holidays.includes(day)}
                onClick={() => {
                  control.onChange([...holidays, day]);
                  setDay('');
                }}
              >
                <Plus /> Add holiday
              </Button>
            </HStack>
          </Stack>
        );
      }}
    </SettingField>
  );
}
