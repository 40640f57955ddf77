/**
 * Writes api-report.md: every name each entry point of the package exports, with its kind and
 * type, read from the sources by the TypeScript compiler. test/e2e/api-report.test.ts fails when
 * the exported surface no longer matches the checked-in report; `npm run api-report` updates it.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPORT_FILE = join(ROOT, 'api-report.md');

/** The package's entry points (package.json `exports`) and the sources they are built from. */
export const ENTRY_POINTS = [
  { name: 'conveyor', source: 'composition/library/index.ts' },
  { name: 'conveyor/sdk', source: 'adapters/apps/sdk/index.ts' },
  { name: 'conveyor/testing', source: 'composition/library/testing.ts' },
] as const;

const FORMAT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrowStyleSignature;

const compilerOptions = (): ts.CompilerOptions => {
  const file = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
};

const kindOf = (symbol: ts.Symbol): string => {
  const flags = symbol.flags;
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & ts.SymbolFlags.Function) return 'function';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  if (flags & ts.SymbolFlags.TypeAlias) return 'type';
  if (flags & ts.SymbolFlags.Variable) return 'const';
  if (flags & ts.SymbolFlags.Enum) return 'enum';
  return 'value';
};

/** One line, without the compiler's absolute import("...") paths: the report reads the same on any machine. */
const clean = (text: string) =>
  text
    .replace(/import\("[^"]*"\)\./g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/;$/, '');

const DECLARED = new Set([
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.GetAccessor,
]);

/**
 * An object type's members, one per line, sorted: a change to any of them changes the report.
 * A member written with its type is shown as written (its names kept); an inferred one, as the
 * compiler prints its type.
 */
const membersOf = (checker: ts.TypeChecker, type: ts.Type, at: ts.Node): string[] => [
  ...type
    .getCallSignatures()
    .map((signature) => `  ${clean(checker.signatureToString(signature, at, FORMAT, ts.SignatureKind.Call))};`),
  ...checker
    .getPropertiesOfType(type)
    .filter((property) => !property.getName().startsWith('#') && !property.getName().startsWith('__'))
    .map((property) => {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      // A method with a body (in an object literal) is shown by its type: its code is not its API.
      const hasBody = declaration !== undefined && (declaration as { body?: ts.Node }).body !== undefined;
      if (declaration && DECLARED.has(declaration.kind) && (declaration as { type?: ts.Node }).type && !hasBody) {
        return `  ${clean(declaration.getText())};`;
      }
      const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
      const propertyType = checker.typeToString(checker.getTypeOfSymbolAtLocation(property, at), at, FORMAT);
      return `  ${property.getName()}${optional}: ${clean(propertyType)};`;
    })
    .sort(),
];

const isPlainObject = (type: ts.Type) =>
  (type.flags & ts.TypeFlags.Object) !== 0 && type.getCallSignatures().length === 0 && !type.isUnion();

/** `<T, E>` of a generic declaration, as written. */
const typeParametersOf = (node: ts.Node): string => {
  const parameters = (node as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> }).typeParameters;
  return parameters ? clean(`<${parameters.map((p) => p.getText()).join(', ')}>`) : '';
};

const describeSymbol = (checker: ts.TypeChecker, exported: ts.Symbol): string => {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const at = symbol.declarations?.[0] as ts.Node;
  const name = exported.getName() + typeParametersOf(at);
  const kind = kindOf(symbol);
  if (kind === 'class') {
    const statics = checker.getTypeOfSymbolAtLocation(symbol, at);
    const constructors = statics
      .getConstructSignatures()
      .map((s) => `  constructor${checker.signatureToString(s, at, FORMAT).replace(/ => .*$/, '')};`);
    const instance = checker.getDeclaredTypeOfSymbol(symbol);
    return [`class ${name} {`, ...constructors, ...membersOf(checker, instance, at), '}'].join('\n');
  }
  if (kind === 'interface' || kind === 'type') {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    if (kind === 'interface' || isPlainObject(type)) {
      return [`${kind} ${name} {`, ...membersOf(checker, type, at), '}'].join('\n');
    }
    const written = ts.isTypeAliasDeclaration(at) ? at.type.getText() : null;
    return `type ${name} = ${clean(written ?? checker.typeToString(type, at, FORMAT | ts.TypeFormatFlags.InTypeAlias))};`;
  }
  const type = checker.getTypeOfSymbolAtLocation(symbol, at);
  return `${kind} ${name}: ${clean(checker.typeToString(type, at, FORMAT))};`;
};

/** The report's text: for each entry point, its exports sorted by name. */
export const apiReport = (): string => {
  const program = ts.createProgram(
    ENTRY_POINTS.map((entry) => join(ROOT, entry.source)),
    compilerOptions(),
  );
  const checker = program.getTypeChecker();
  const sections = ENTRY_POINTS.map((entry) => {
    const file = program.getSourceFile(join(ROOT, entry.source));
    const module = file && checker.getSymbolAtLocation(file);
    if (!module) throw new Error(`${entry.source} is not a module`);
    const exports = checker
      .getExportsOfModule(module)
      .sort((a, b) => a.getName().localeCompare(b.getName()))
      .map((symbol) => describeSymbol(checker, symbol));
    return [`## ${entry.name}`, '', `From \`${entry.source}\`.`, '', '```ts', ...exports, '```', ''].join('\n');
  });
  return [
    '# API report',
    '',
    'The names each entry point of the package exports, with their types. Generated by `npm run api-report`;',
    'a test fails when the exported surface differs. A change here is a change of the API that',
    '[docs/embedding.md](docs/embedding.md) promises under semantic versioning.',
    '',
    ...sections,
  ].join('\n');
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(REPORT_FILE, apiReport());
  console.log(`wrote ${REPORT_FILE}`);
}
