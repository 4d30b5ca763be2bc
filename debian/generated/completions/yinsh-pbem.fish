# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_yinsh_pbem_global_optspecs
    string join \n h/help V/version
end

function __fish_yinsh_pbem_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_yinsh_pbem_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_yinsh_pbem_using_subcommand
    set -l cmd (__fish_yinsh_pbem_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -s V -l version -d 'Print version'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "deliver" -d 'Handle ONE mail read from stdin (as an MTA pipe hands it over)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "flush" -d 'Send the replies waiting in the spool, then make the robot\'s reviews owed (two at most)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "status" -d 'How the server is doing: spool, last tick and flush, failing addresses, robots\' time, games going on and due, store; for a person or for Prometheus'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "tick" -d 'Send reminders and forfeit games whose player to move is too late (run from cron)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "reindex" -d 'Build every index (history, ratings, each player\'s games, due games) again from the game files: after game files were edited or restored by hand'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "backup" -d 'Write the whole store into the archive FILE (tar), under the store\'s lock: a consistent copy of accounts, games, reply key, seen marks, spool and outbox'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "restore" -d 'Unpack an archive `backup` wrote into the home, which must be missing or empty'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "check-config" -d 'Report the settings that deliver, flush and tick would use, and what is wrong with them'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "generate-package-files" -d 'Write the manual pages and shell completions into DIR (for packaging)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "rotate-reply-key" -d 'Replace the key of the reply tokens: every mail sent so far can no longer be answered by pressing Reply (players reply to a newer mail, or use their password)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "perft" -d 'Count the atomic-action sequences of length DEPTH after the given actions'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "replay" -d 'Play a transcript of turns (FILE or stdin) and print the final board'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "think" -d 'Print the turn the robot plays for the side to move after a transcript (FILE or stdin)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "review" -d 'Print the robot\'s review of a transcript\'s game (FILE or stdin): White\'s win chance before and after every turn, and each side\'s turning points with the robot\'s preferred turn. The same for a budget on every machine'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "match" -d 'Play engine against engine, colours alternating, and print the result and the Elo difference'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "import" -d 'Read a Boardspace SGF game record (FILE or stdin) and print it as a transcript'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "export" -d 'Play a transcript (FILE or stdin) and print it as a Boardspace SGF game record'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "site" -d 'Write the static web site of the games: index, one page per game with every position, standings, history, rules'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "render" -d 'Draw the final position of a transcript (as `replay` plays it), its last turn marked'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l from -d 'The From of every reply [default: "YINSH PBeM <yinsh@localhost>"]' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l smtp -d 'Send replies by SMTP: smtp://host:25 (plain), smtp://host:587?tls=required (STARTTLS), smtps://host:465; user@ for a login, its password in --smtp-password-file (never in this URL: `ps` shows it)' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l smtp-password-file -d 'A file holding the SMTP password (its first line), for the user of the SMTP URL' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l sendmail -d 'Send replies through a sendmail-compatible program' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l outbox -d 'Write replies as .eml files into this folder [default: <home>/outbox]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l max-message-bytes -d 'Mails larger than this get a short error and are not handled [default: 1048576]' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l sender -d 'The envelope sender, when the mail system passes it; write --sender=VALUE (a value may start with `-`)' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -s v -l verbose -d 'Print what was done (replies and where they went) on stdout'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -l dry-run -d 'Print what the mail would be answered and would change; write nothing'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand deliver" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -l from -d 'The From of every reply [default: "YINSH PBeM <yinsh@localhost>"]' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -l smtp -d 'Send replies by SMTP: smtp://host:25 (plain), smtp://host:587?tls=required (STARTTLS), smtps://host:465; user@ for a login, its password in --smtp-password-file (never in this URL: `ps` shows it)' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -l smtp-password-file -d 'A file holding the SMTP password (its first line), for the user of the SMTP URL' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -l sendmail -d 'Send replies through a sendmail-compatible program' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -l outbox -d 'Write replies as .eml files into this folder [default: <home>/outbox]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -s v -l verbose -d 'Print what was done'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand flush" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand status" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand status" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand status" -l prometheus -d 'Write the figures in the Prometheus text format (a node_exporter\'s textfile collector reads it): into FILE, written whole then renamed, or on standard output without FILE' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand status" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -l from -d 'The From of every reply [default: "YINSH PBeM <yinsh@localhost>"]' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -l smtp -d 'Send replies by SMTP: smtp://host:25 (plain), smtp://host:587?tls=required (STARTTLS), smtps://host:465; user@ for a login, its password in --smtp-password-file (never in this URL: `ps` shows it)' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -l smtp-password-file -d 'A file holding the SMTP password (its first line), for the user of the SMTP URL' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -l sendmail -d 'Send replies through a sendmail-compatible program' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -l outbox -d 'Write replies as .eml files into this folder [default: <home>/outbox]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -s v -l verbose -d 'Print what was done'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand tick" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand reindex" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand reindex" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand reindex" -s v -l verbose -d 'Print what was done'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand reindex" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand backup" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand backup" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand backup" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand restore" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand restore" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand restore" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l from -d 'The From of every reply [default: "YINSH PBeM <yinsh@localhost>"]' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l smtp -d 'Send replies by SMTP: smtp://host:25 (plain), smtp://host:587?tls=required (STARTTLS), smtps://host:465; user@ for a login, its password in --smtp-password-file (never in this URL: `ps` shows it)' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l smtp-password-file -d 'A file holding the SMTP password (its first line), for the user of the SMTP URL' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l sendmail -d 'Send replies through a sendmail-compatible program' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l outbox -d 'Write replies as .eml files into this folder [default: <home>/outbox]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l max-message-bytes -d 'Mails larger than this get a short error and are not handled [default: 1048576]' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -l test-smtp -d 'Also log in to the SMTP relay as a send would (connect, STARTTLS, AUTH, QUIT)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand check-config" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand generate-package-files" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand rotate-reply-key" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand rotate-reply-key" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand rotate-reply-key" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand perft" -l blitz -d 'Play the blitz variant (first ring removed wins)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand perft" -l divide -d 'Split the count by first action'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand perft" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand replay" -l blitz -d 'Play the blitz variant'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand replay" -l json -d 'Print one JSON object instead of the board'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand replay" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand think" -l level -d 'The robot\'s level, 1 (weakest) to 5 (strongest) [default: 5]' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand think" -l ms -d 'Think this many milliseconds (the top level\'s search)' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand think" -l playouts -d 'Think this many playouts (the top level\'s search; reproducible with --seed)' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand think" -l seed -d 'The seed of the robot\'s generator' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand think" -l blitz -d 'Play the blitz variant'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand think" -l stats -d 'Also print to stderr what each decision\'s search did: iterations, the tree\'s nodes, memory and depth, the time in playouts, expansions and evaluations'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand think" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand review" -l playouts -d 'The playouts spent on each position' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand review" -l chart -d 'Also write the win-chance chart to this file (PNG for *.png, else SVG)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand review" -l blitz -d 'Play the blitz variant'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand review" -l json -d 'Print one JSON object instead of the table'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand review" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand match" -l games -d 'How many games (A has White in the odd ones)' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand match" -l first -d 'The number of the first game: `--first 101 --games 100` plays games 101 to 200 of the match, with the same seeds and colours as in one run of 200, so a long match can be played in parts and the parts added up' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand match" -l seed -d 'The seed the players\' generators are drawn from' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand match" -l think-ms -d 'The think time of level5, in milliseconds' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand match" -l blitz -d 'Play the blitz variant'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand match" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand import" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand export" -l blitz -d 'Play the blitz variant'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand export" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand site" -l config -d 'A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists)' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand site" -l home -d 'The home folder: games, accounts, spool and outbox [default: the config\'s home, else games in the working directory]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand site" -l from -d 'The From of every reply [default: "YINSH PBeM <yinsh@localhost>"]' -r
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand site" -l out -d 'The folder to write it into [default: the config\'s [site] out]' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand site" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand render" -s o -l out -d 'Write the picture to this file instead of stdout' -r -F
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand render" -l svg -d 'Write SVG text (the default)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand render" -l png -d 'Write a PNG image'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand render" -l blitz -d 'Play the blitz variant'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand render" -s h -l help -d 'Print help'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "deliver" -d 'Handle ONE mail read from stdin (as an MTA pipe hands it over)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "flush" -d 'Send the replies waiting in the spool, then make the robot\'s reviews owed (two at most)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "status" -d 'How the server is doing: spool, last tick and flush, failing addresses, robots\' time, games going on and due, store; for a person or for Prometheus'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "tick" -d 'Send reminders and forfeit games whose player to move is too late (run from cron)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "reindex" -d 'Build every index (history, ratings, each player\'s games, due games) again from the game files: after game files were edited or restored by hand'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "backup" -d 'Write the whole store into the archive FILE (tar), under the store\'s lock: a consistent copy of accounts, games, reply key, seen marks, spool and outbox'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "restore" -d 'Unpack an archive `backup` wrote into the home, which must be missing or empty'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "check-config" -d 'Report the settings that deliver, flush and tick would use, and what is wrong with them'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "generate-package-files" -d 'Write the manual pages and shell completions into DIR (for packaging)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "rotate-reply-key" -d 'Replace the key of the reply tokens: every mail sent so far can no longer be answered by pressing Reply (players reply to a newer mail, or use their password)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "perft" -d 'Count the atomic-action sequences of length DEPTH after the given actions'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "replay" -d 'Play a transcript of turns (FILE or stdin) and print the final board'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "think" -d 'Print the turn the robot plays for the side to move after a transcript (FILE or stdin)'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "review" -d 'Print the robot\'s review of a transcript\'s game (FILE or stdin): White\'s win chance before and after every turn, and each side\'s turning points with the robot\'s preferred turn. The same for a budget on every machine'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "match" -d 'Play engine against engine, colours alternating, and print the result and the Elo difference'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "import" -d 'Read a Boardspace SGF game record (FILE or stdin) and print it as a transcript'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "export" -d 'Play a transcript (FILE or stdin) and print it as a Boardspace SGF game record'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "site" -d 'Write the static web site of the games: index, one page per game with every position, standings, history, rules'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "render" -d 'Draw the final position of a transcript (as `replay` plays it), its last turn marked'
complete -c yinsh-pbem -n "__fish_yinsh_pbem_using_subcommand help; and not __fish_seen_subcommand_from deliver flush status tick reindex backup restore check-config generate-package-files rotate-reply-key perft replay think review match import export site render help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
