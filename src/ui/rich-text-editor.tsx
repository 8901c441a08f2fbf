// The one rich-text editor (WYSIWYG attributes now, mail templates later). Pages import this wrapper;
// tiptap loads on first use as its own chunk, so no page pays for it until it shows an editor.
import { Skeleton } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import type { TiptapEditorProps } from './rich-text/TiptapEditor';

const TiptapEditor = lazy(() => import('./rich-text/TiptapEditor'));

export function RichTextEditor(props: TiptapEditorProps) {
  return (
    <Suspense fallback={<Skeleton height="36" rounded="md" />}>
      <TiptapEditor {...props} />
    </Suspense>
  );
}
