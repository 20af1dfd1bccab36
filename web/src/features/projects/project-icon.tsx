import {
  BarChart3,
  Bot,
  FolderGit2,
  Gamepad2,
  Globe,
  type LucideIcon,
  Server,
  ShoppingCart,
  Smartphone,
  Terminal,
} from 'lucide-react';

const rules: [RegExp, LucideIcon][] = [
  [/\b(ai|bot|gpt|llm|chat)/i, Bot],
  [/\b(api|server|backend|service)/i, Server],
  [/\b(mobile|ios|android|app)\b/i, Smartphone],
  [/\b(game|play)/i, Gamepad2],
  [/\b(shop|store|commerce|market)/i, ShoppingCart],
  [/\b(data|analytics|dashboard|metrics|stats)/i, BarChart3],
  [/\b(cli|tool|script|terminal)/i, Terminal],
  [/\b(web|site|blog|page|portfolio)/i, Globe],
];

/** An icon chosen by keywords in the project's name. */
export function ProjectIcon({ name, className }: { name: string; className?: string }) {
  const Icon = rules.find(([pattern]) => pattern.test(name))?.[1] ?? FolderGit2;
  return <Icon className={className} aria-hidden />;
}
