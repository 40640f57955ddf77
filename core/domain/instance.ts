export interface FooterLink {
  readonly label: string;
  readonly url: string;
}

/** How the instance presents itself; shown to everyone, set by administrators. */
export interface Appearance {
  readonly title: string | null;
  readonly primaryMainColor: string | null;
  readonly primaryDarkColor: string | null;
  readonly primaryLightColor: string | null;
  readonly logoSvgData: string | null;
  readonly footerLinks: readonly FooterLink[];
}

export const DEFAULT_APPEARANCE: Appearance = {
  title: null,
  primaryMainColor: null,
  primaryDarkColor: null,
  primaryLightColor: null,
  logoSvgData: null,
  footerLinks: [],
};

export interface InstanceConfig extends Appearance {
  readonly installationCompleted: boolean;
  readonly registrationEnabled: boolean;
  readonly enableTemplates: boolean;
}

export type InstanceConfigChanges = Partial<Omit<InstanceConfig, 'installationCompleted'>>;

export interface ServiceInfo {
  readonly installationCompleted: boolean;
  readonly version: string;
  readonly isEnterprise: boolean;
  readonly isCloud: boolean;
  readonly docsUrl: string | null;
  readonly registrationEnabled: boolean;
}
