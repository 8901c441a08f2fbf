import { Box, Card, Center, Heading, Text } from '@chakra-ui/react';
import { Store } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * The frame of the pages for people who are not signed in: the product name and one card, the page's
 * main landmark. `wide` for a page with a table (the customer's offer).
 */
export function PublicLayout({
  title,
  subtitle,
  wide = false,
  children,
}: {
  title: string;
  subtitle?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <Center minH="100vh" bg="bg.subtle" px="4" py={wide ? '8' : undefined}>
      <Box w="full" maxW={wide ? '4xl' : 'sm'}>
        <Center gap="2" mb="6" color="brand.fg">
          <Store aria-hidden size={28} />
          <Text fontWeight="bold" fontSize="lg">
            Marketplace Back-office
          </Text>
        </Center>
        <Card.Root as="main">
          <Card.Body gap="5">
            <Box>
              <Heading as="h1" size="lg">
                {title}
              </Heading>
              {subtitle ? (
                <Text color="fg.muted" mt="1" fontSize="sm">
                  {subtitle}
                </Text>
              ) : null}
            </Box>
            {children}
          </Card.Body>
        </Card.Root>
      </Box>
    </Center>
  );
}
