// The marketplace's words on a public page a mail links to (Settings → Content), shown as text, with
// the links back to the shop and to the terms when they are set. Nothing while loading or on failure:
// the page's own wording stands on its own.
import { HStack, Link, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { pageTexts, type PageTexts as Texts } from './api';

export function PageTexts({ page }: { page: 'unsubscribe' | 'response' }) {
  const [texts, setTexts] = useState<Texts | null>(null);
  useEffect(() => {
    let live = true;
    pageTexts(page).then(
      (answer) => live && setTexts(answer),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [page]);
  if (!texts) return null;
  return (
    <>
      {texts.text ? (
        <Text whiteSpace="pre-wrap" data-testid="page-text">
          {texts.text}
        </Text>
      ) : null}
      {texts.storefrontUrl || texts.termsUrl ? (
        <HStack gap="4" fontSize="sm">
          {texts.storefrontUrl ? (
            <Link href={texts.storefrontUrl} rel="noopener noreferrer" color="brand.fg">
              Back to the shop
            </Link>
          ) : null}
          {texts.termsUrl ? (
            <Link href={texts.termsUrl} rel="noopener noreferrer" color="brand.fg">
              Terms
            </Link>
          ) : null}
        </HStack>
      ) : null}
    </>
  );
}
