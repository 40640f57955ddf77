import { useState } from 'preact/hooks';
import { showToast } from '../toast';
import type { Flow } from '../types';
import { InputField } from '../ui';

/** The longest publish message the server keeps (VERSION_MESSAGE_MAX_LENGTH). */
const MESSAGE_MAX_LENGTH = 1000;

/**
 * Said above the steps of a flow that was published and whose draft differs from the version it
 * runs: which version is live, that the steps below are a draft, and the two ways on (publish it,
 * with a word on what changed, or go back to the published version).
 */
export const DraftBanner = ({
  flow,
  busy,
  onPublish,
  onDiscard,
}: {
  flow: Flow;
  busy: boolean;
  onPublish: (message: string) => Promise<boolean>;
  /** Each resolves whether it was done (the editor shows why not). */
  onDiscard: () => Promise<boolean>;
}) => {
  const [publishing, setPublishing] = useState(false);
  const [message, setMessage] = useState('');
  const live = flow.publishedVersion;
  if (!live) return null;
  // Before any change the steps below are still editable: said, so that nobody expects a refusal.
  if (!flow.hasDraftChanges) {
    return flow.active ? (
      <p class="hint live-note">
        Version {live.number} is live. What you change below is saved as a draft; the flow keeps running version{' '}
        {live.number} until you publish the draft.
      </p>
    ) : null;
  }
  const next = live.number + 1;
  const publish = async (event: Event) => {
    event.preventDefault();
    if (await onPublish(message)) {
      setPublishing(false);
      setMessage('');
      showToast(`Version ${next} is live.`);
    } else {
      showToast('The draft was not published: see why on the page.', 'error');
    }
  };
  return (
    <section class="alert draft-banner" aria-label="Draft">
      <p>
        <strong>
          {flow.active
            ? `Published version ${live.number} is live. You are editing a draft.`
            : `Version ${live.number} was published last; the flow is unpublished. You are editing a draft.`}
        </strong>{' '}
        {flow.active
          ? 'Your changes run only once you publish them.'
          : 'Publishing makes it the next version and starts the flow.'}
      </p>
      {publishing ? (
        <form class="inline" aria-label="Publish the draft" onSubmit={(e) => void publish(e)}>
          <InputField
            label="What changed (optional)"
            name="message"
            value={message}
            onValue={setMessage}
            maxLength={MESSAGE_MAX_LENGTH}
            placeholder="Shown in the flow's history"
            autoFocus
          />
          <button type="submit" class="primary" disabled={busy}>
            Publish version {next}
          </button>
          <button type="button" onClick={() => setPublishing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div class="buttons">
          <button type="button" class="primary" disabled={busy} onClick={() => setPublishing(true)}>
            Publish changes
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => {
              if (confirm(`Discard the changes to the draft? It goes back to version ${live.number}, as it runs.`))
                void onDiscard().then((discarded) =>
                  showToast(
                    discarded
                      ? `Draft discarded: back to version ${live.number}.`
                      : 'The changes were not discarded: see why on the page.',
                    discarded ? 'success' : 'error',
                  ),
                );
            }}
          >
            Discard changes
          </button>
        </div>
      )}
    </section>
  );
};
