import { useEffect, useState } from 'preact/hooks';
import type { TemplateEditorProps } from './template-editor';

type EditorModule = typeof import('./template-editor');

let loaded: EditorModule | null = null;
let loading: Promise<EditorModule> | null = null;
const load = () => {
  loading ??= import('./template-editor').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
};

/**
 * The step form's editor, whose code (CodeMirror and its languages, most of the console's weight)
 * loads with the first field that needs it rather than with every page. Until then the field's
 * text shows where the editor will be.
 */
export const TemplateEditor = (props: TemplateEditorProps) => {
  const [module, setModule] = useState<{ editor: EditorModule } | null>(loaded && { editor: loaded });
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (module) return;
    load().then(
      (editor) => setModule({ editor }),
      () => setFailed(true),
    );
  }, []);
  if (module) return <module.editor.TemplateEditor {...props} />;
  return (
    <div class={`template-editor template-editor-${props.kind}`} aria-busy="true">
      <pre class="template-editor-loading">{props.value}</pre>
      {failed && <p class="field-error">The editor could not be loaded: reload the page.</p>}
    </div>
  );
};
