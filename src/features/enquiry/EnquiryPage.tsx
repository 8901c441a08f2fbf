import {
  Box,
  Button,
  Center,
  Field,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  RadioGroup,
  Spinner,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { useRoute } from 'wouter';
import type { EnquiryAccepted, EnquiryConfig, EnquiryMode, EnquiryProduct } from '../../../contracts/enquiry';
import { getErrorMessage } from '../../services/api-error';
import { FormMessage, SubmissionError } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { useSubmission } from '../../ui/use-submission';
import { type EnquiryApi, enquiryApi } from './enquiry-api';

/** The same limit as contracts/enquiry.ts (a value import from there would pull classic zod in). */
const MAX_MESSAGE_LENGTH = 4000;
/** A little over the server's minimum fill time (form-token.ts): a fast typist or autofill waits it out. */
const MIN_FILL_MS = 3_200;

interface Line {
  product: EnquiryProduct;
  quantity: number;
}

type Errors = Partial<Record<'name' | 'email' | 'subject' | 'message' | 'lines', string>>;

/**
 * /enquiry/{sellerCode} (public, no sign-in): a customer asks the shop a question or for an offer. Made
 * to live in an iframe too (public/enquiry.js; framing follows Settings → Website's embedding sites).
 * The shop's introduction is shown as text. The hidden "website" field is a honeypot: people never see
 * or reach it (off-screen, aria-hidden, tabindex -1, autocomplete off); a bot that fills it is refused.
 */
export default function EnquiryPage({
  api = enquiryApi,
  minFillMs = MIN_FILL_MS,
}: {
  api?: EnquiryApi;
  /** How long after the form arrived a send may go out (the server refuses sooner ones). */
  minFillMs?: number;
}) {
  const [, params] = useRoute('/enquiry/:sellerCode');
  const sellerCode = params?.sellerCode ?? '';
  const [config, setConfig] = useState<EnquiryConfig | null>(null);
  const [loadedAt, setLoadedAt] = useState(0);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [mode, setMode] = useState<EnquiryMode>('question');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [website, setWebsite] = useState('');
  const [product, setProduct] = useState<EnquiryProduct | null>(null);
  const [lines, setLines] = useState<Line[]>([]);
  const [shippingCountry, setShippingCountry] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const load = useCallback(
    () =>
      api.form(sellerCode).then(
        (loaded) => {
          setConfig(loaded);
          setLoadedAt(Date.now());
          setLoadError(null);
        },
        (error: unknown) => setLoadError(getErrorMessage(error)),
      ),
    [api, sellerCode],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const send = useCallback(
    async (token: string): Promise<EnquiryAccepted> => {
      const early = loadedAt + minFillMs - Date.now();
      if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
      try {
        return await api.send(sellerCode, {
          formToken: token,
          website,
          mode,
          name,
          email,
          phone,
          subject,
          message,
          productId: mode === 'question' ? (product?.id ?? null) : null,
          lines:
            mode === 'offer'
              ? lines.map((line) => ({ productId: line.product.id, quantity: line.quantity }))
              : [],
          shippingCountry: mode === 'offer' && shippingCountry ? shippingCountry : null,
        });
      } catch (error) {
        // An expired form (left open for hours): a fresh token, so that the next press goes through.
        if (error instanceof Error && 'code' in error && error.code === 'ENQUIRY_REFUSED') void load();
        throw error;
      }
    },
    [
      api,
      sellerCode,
      loadedAt,
      minFillMs,
      website,
      mode,
      name,
      email,
      phone,
      subject,
      message,
      product,
      lines,
      shippingCountry,
      load,
    ],
  );
  const { state, submit } = useSubmission(send);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!name.trim()) found.name = 'Enter your name';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) found.email = 'Enter a valid e-mail address';
    if (mode === 'question' && !subject.trim()) found.subject = 'Enter a subject';
    if (!message.trim()) found.message = 'Write your message';
    if (mode === 'offer' && lines.length === 0) found.lines = 'Choose at least one product';
    else if (mode === 'offer' && lines.some((line) => line.quantity < 1))
      found.lines = 'Enter a quantity for each product';
    setErrors(found);
    if (Object.keys(found).length === 0 && config) submit(config.formToken);
  };

  if (loadError) {
    return (
      <PublicLayout title="Enquiry">
        <FormMessage status="error">{loadError}</FormMessage>
      </PublicLayout>
    );
  }
  if (!config) {
    return (
      <Center h="100dvh">
        <Spinner aria-label="Loading the form" />
      </Center>
    );
  }
  const title = `Ask ${config.sellerName}`;
  if (state.status === 'success') {
    return (
      <PublicLayout title={title}>
        <FormMessage status="success">{state.data.message}</FormMessage>
      </PublicLayout>
    );
  }

  return (
    <PublicLayout title={title} subtitle={config.intro || undefined}>
      <form onSubmit={onSubmit} noValidate aria-label="Enquiry">
        <Stack gap="4">
          <SubmissionError state={state} />
          <RadioGroup.Root
            value={mode}
            onValueChange={(event) => setMode(event.value === 'offer' ? 'offer' : 'question')}
            aria-label="What would you like to do?"
          >
            <Text fontWeight="medium" mb="2">
              What would you like to do?
            </Text>
            <HStack gap="6" wrap="wrap">
              <RadioGroup.Item value="question">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>Ask a question</RadioGroup.ItemText>
              </RadioGroup.Item>
              <RadioGroup.Item value="offer">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>Ask for an offer</RadioGroup.ItemText>
              </RadioGroup.Item>
            </HStack>
          </RadioGroup.Root>
          <Labelled label="Your name" error={errors.name} required>
            <Input name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
          </Labelled>
          <Labelled label="Your e-mail" error={errors.email} required>
            <Input
              name="email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Labelled>
          <Labelled label="Phone (optional)">
            <Input
              name="phone"
              type="tel"
              autoComplete="tel"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
            />
          </Labelled>
          <Labelled
            label={mode === 'offer' ? 'Subject (optional)' : 'Subject'}
            error={errors.subject}
            required={mode === 'question'}
          >
            <Input
              name="subject"
              value={subject}
              maxLength={200}
              onChange={(e) => setSubject(e.target.value)}
            />
          </Labelled>
          {mode === 'question' ? (
            <ProductPicker
              api={api}
              sellerCode={sellerCode}
              label="Product (optional)"
              emptyChoice="No particular product"
              chosen={product}
              onChoose={setProduct}
            />
          ) : (
            <OfferLines
              api={api}
              sellerCode={sellerCode}
              lines={lines}
              onChange={setLines}
              error={errors.lines}
            />
          )}
          <Labelled label="Message" error={errors.message} required>
            <Textarea
              name="message"
              rows={5}
              maxLength={MAX_MESSAGE_LENGTH}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          </Labelled>
          {mode === 'offer' ? (
            <Labelled label="Shipping country (optional)" helper="Two letters, such as DE or GB.">
              <Input
                name="shippingCountry"
                autoComplete="country"
                maxLength={2}
                value={shippingCountry}
                onChange={(e) => setShippingCountry(e.target.value.toUpperCase())}
              />
            </Labelled>
          ) : null}
          {/* The honeypot: out of sight, out of the accessibility tree and the tab order. */}
          <Box
            aria-hidden="true"
            position="absolute"
            left="-10000px"
            top="auto"
            w="1px"
            h="1px"
            overflow="hidden"
          >
            <label htmlFor="enquiry-website">Website</label>
            <input
              id="enquiry-website"
              name="website"
              type="text"
              tabIndex={-1}
              autoComplete="off"
              value={website}
              onChange={(e) => setWebsite(e.target.value)}
            />
          </Box>
          <Button
            type="submit"
            colorPalette="blue"
            loading={state.status === 'pending'}
            alignSelf="flex-start"
          >
            {mode === 'offer' ? 'Ask for an offer' : 'Send question'}
          </Button>
        </Stack>
      </form>
    </PublicLayout>
  );
}

function Labelled({
  label,
  error,
  helper,
  required,
  children,
}: {
  label: string;
  error?: string;
  helper?: string;
  required?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Field.Root invalid={!!error} required={required}>
      <Field.Label>
        {label}
        {required ? <Field.RequiredIndicator /> : null}
      </Field.Label>
      {children}
      {helper ? <Field.HelperText>{helper}</Field.HelperText> : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** The shop's live products found by a search on the server, 20 at a time. */
function useProductSearch(api: EnquiryApi, sellerCode: string, search: string) {
  const [found, setFound] = useState<{ items: EnquiryProduct[]; hasMore: boolean }>({
    items: [],
    hasMore: false,
  });
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      api.products(sellerCode, search).then(
        (page) => current && setFound(page),
        () => current && setFound({ items: [], hasMore: false }),
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, sellerCode, search]);
  const more = () =>
    api
      .products(sellerCode, search, found.items.length)
      .then((page) =>
        setFound((before) => ({ items: [...before.items, ...page.items], hasMore: page.hasMore })),
      );
  return { ...found, more };
}

function ProductPicker({
  api,
  sellerCode,
  label,
  emptyChoice,
  chosen,
  onChoose,
}: {
  api: EnquiryApi;
  sellerCode: string;
  label: string;
  emptyChoice: string;
  chosen: EnquiryProduct | null;
  onChoose: (product: EnquiryProduct | null) => void;
}) {
  const [search, setSearch] = useState('');
  const found = useProductSearch(api, sellerCode, search);
  const searchId = useId();
  const options =
    chosen && !found.items.some((item) => item.id === chosen.id) ? [chosen, ...found.items] : found.items;
  return (
    <Stack gap="2">
      <Field.Root>
        <Field.Label htmlFor={searchId}>Search products</Field.Label>
        <Input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </Field.Root>
      <Field.Root>
        <Field.Label>{label}</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field
            value={chosen?.id ?? ''}
            onChange={(e) => onChoose(options.find((item) => item.id === e.target.value) ?? null)}
          >
            <option value="">{emptyChoice}</option>
            {options.map((item) => (
              <option key={item.id} value={item.id}>
                {item.title} ({item.sku})
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      {found.hasMore ? (
        <Button size="sm" variant="outline" alignSelf="flex-start" onClick={() => void found.more()}>
          Show more products
        </Button>
      ) : null}
    </Stack>
  );
}

function OfferLines({
  api,
  sellerCode,
  lines,
  onChange,
  error,
}: {
  api: EnquiryApi;
  sellerCode: string;
  lines: Line[];
  onChange: (lines: Line[]) => void;
  error?: string;
}) {
  const [picked, setPicked] = useState<EnquiryProduct | null>(null);
  const add = () => {
    if (!picked || lines.some((line) => line.product.id === picked.id)) return;
    onChange([...lines, { product: picked, quantity: 1 }]);
    setPicked(null);
  };
  return (
    <Stack gap="3" as="fieldset">
      <Text as="legend" fontWeight="medium">
        Products for the offer
      </Text>
      <ProductPicker
        api={api}
        sellerCode={sellerCode}
        label="Product to add"
        emptyChoice="Choose a product"
        chosen={picked}
        onChoose={setPicked}
      />
      <Button size="sm" alignSelf="flex-start" onClick={add} disabled={!picked}>
        Add to the request
      </Button>
      {lines.length > 0 ? (
        <Stack as="ul" gap="2" listStyleType="none">
          {lines.map((line, index) => (
            <HStack as="li" key={line.product.id} gap="2" wrap="wrap">
              <Text flex="1" minW="40">
                {line.product.title}
              </Text>
              <Field.Root w="28">
                <Field.Label srOnly>Quantity of {line.product.title}</Field.Label>
                <Input
                  type="number"
                  min={1}
                  inputMode="numeric"
                  value={line.quantity || ''}
                  onChange={(e) => {
                    // 0 while the field is empty (the form asks for a quantity before sending).
                    const quantity = Math.max(0, Math.floor(Number(e.target.value) || 0));
                    onChange(lines.map((other, at) => (at === index ? { ...other, quantity } : other)));
                  }}
                />
              </Field.Root>
              <IconButton
                size="sm"
                variant="ghost"
                aria-label={`Remove ${line.product.title}`}
                onClick={() => onChange(lines.filter((_, at) => at !== index))}
              >
                ×
              </IconButton>
            </HStack>
          ))}
        </Stack>
      ) : null}
      {error ? (
        <Text color="fg.error" fontSize="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
