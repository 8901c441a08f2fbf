// The bid form of an auction's live view, on the public page and on the staff page: the bidder's
// maximum in the auction's currency. The server bids for them by the increment up to it (proxy
// bidding), so one maximum is all a bidder needs to give; the least acceptable amount is shown.
import { Button, Field, HStack, Input, Text } from '@chakra-ui/react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { decimalOf, minorOf, money } from '../../../lib/money';
import { FormMessage } from '../../../ui/form-parts';

export interface BidFormProps {
  currency: string;
  minimumBidMinor: number;
  /** False when the auction is not live (the button is disabled, the reason shown by the view). */
  open: boolean;
  /** Places the bid; rejects with an error whose message is shown. */
  onBid(maxMinor: number): Promise<void>;
  /** Above the input: whom the bid is for (staff). */
  children?: ReactNode;
}

export function BidForm({ currency, minimumBidMinor, open, onBid, children }: BidFormProps) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [placed, setPlaced] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const maxMinor = minorOf(text, currency);
    if (typeof maxMinor === 'string' || maxMinor <= 0) {
      setProblem(typeof maxMinor === 'string' ? maxMinor : 'Enter an amount above 0.');
      return;
    }
    setProblem(null);
    setFailure(null);
    setPlaced(null);
    setPending(true);
    try {
      await onBid(maxMinor);
      setPlaced(`Your maximum of ${money(maxMinor, currency)} is placed.`);
      setText('');
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Place a bid">
      {children}
      <FormMessage status="error">{failure}</FormMessage>
      <FormMessage status="success">{placed}</FormMessage>
      <Field.Root invalid={Boolean(problem)} mt="3">
        <Field.Label>Your maximum bid ({currency})</Field.Label>
        <HStack align="start">
          <Input
            name="maxBid"
            inputMode="decimal"
            autoComplete="off"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={decimalOf(minimumBidMinor, currency)}
            maxW="48"
          />
          <Button type="submit" colorPalette="brand" loading={pending} disabled={!open}>
            Place bid
          </Button>
        </HStack>
        <Field.HelperText>
          At least {money(minimumBidMinor, currency)}. We bid for you by the increment up to your maximum, and
          nobody sees it.
        </Field.HelperText>
        <Field.ErrorText>{problem}</Field.ErrorText>
      </Field.Root>
      {!open ? <Text srOnly>Bidding is closed.</Text> : null}
    </form>
  );
}
