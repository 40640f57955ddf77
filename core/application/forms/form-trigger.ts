/** The forms app's trigger: the flows a form's answers start are those whose trigger names the form. */
export const FORM_TRIGGER = { appKey: 'forms', key: 'newFormSubmission' } as const;
