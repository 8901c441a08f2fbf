import { Card } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A record page's section (a query, an offer, an order): a card with an h2 title. */
export function SectionCard({
  title,
  children,
  tour,
}: {
  title: string;
  children: ReactNode;
  tour?: string;
}) {
  return (
    <Card.Root size="sm" data-tour={tour}>
      <Card.Header>
        <Card.Title as="h2" fontSize="md">
          {title}
        </Card.Title>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
