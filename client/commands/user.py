"""``cq user``: operations on your user account."""

from __future__ import annotations

from typing import Any

import click

from client.commands.options import server_url_option
from client.commands.sessions import hint_for_profile, run_verify
from client.errors import RefusedError
from client.render.ratings import unknown_route, user_rating_lines
from client.render.scores import render_highscores
from client.render.themes import THEME_NAMES
from client.state import AppState, pass_state


class AliasGroup(click.Group):
    """A group that also accepts other spellings of some commands (not listed in help)."""

    def __init__(self, *args: Any, aliases: dict[str, str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.aliases = dict(aliases or {})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, self.aliases.get(cmd_name, cmd_name))


@click.group(cls=AliasGroup, aliases={"ntfy_dm_topic": "ntfy-dm-topic"})
def user() -> None:
    """Operations on your user account."""


def on_off(value: object) -> str:
    return "true" if value else "false"


def show_me(me: dict[str, Any]) -> list[str]:
    notify = me.get("notify") or {}
    session = me.get("session") or {}
    lines = [
        f"Username: {me.get('username')}",
        f"Email Address: {me.get('email')}",
        f"Description: {me.get('description') or ''}",
        f"System admin: {on_off(me.get('is_admin'))}",
        f"Theme: {me.get('theme') or 'dark'}",
        f"Notify on Turn: {on_off(notify.get('turn'))}",
        f"Notify on Action: {on_off(notify.get('action'))}",
        f"Notify on Game: {on_off(notify.get('game'))}",
        f"Daily digest: {on_off(notify.get('digest'))}",
        f"ntfy DM topic: {me.get('ntfy_dm_topic') or '(not set)'}",
    ]
    if session.get("expires_at"):
        lines.append(f"Active session until {session['expires_at']}")
    lines.append(f"Created at: {me.get('created_at')}")
    lines.append(f"Password changed at: {me.get('password_changed_at') or 'never'}")
    return lines


@user.command()
@click.argument("new_password", metavar="[NEW_PASSWORD]", required=False)
@server_url_option("The server url")
@click.option("-u", "--username", metavar="<USERNAME>",
              help="The username of the user (default: the profile's)")
@pass_state
def password(
    state: AppState, new_password: str | None, server_url: str | None, username: str | None
) -> None:
    """Change password.

    No login is needed. A verification code is e-mailed to the user; the change happens
    when the code is entered with 'cq verify -c CODE' from this client. NEW_PASSWORD is
    prompted for (twice, not shown) when not given.
    """
    profile_ = state.store.load()  # may be a new profile (CQ_PROFILE=NAME), like login's
    username = username or profile_.username
    if not username:
        raise click.UsageError("give the username with -u/--username")
    if new_password is None:
        new_password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
    url = server_url or profile_.server_url
    with state.api(url, profile_) as api:
        answer = api.request_password_change(username, new_password)
    profile_.server_url = url
    if profile_.username is None:
        profile_.username = username
    profile_.verification_token = answer["verification_token"]
    profile_.verification_purpose = "password"
    state.save(profile_)
    click.echo(
        f"A verification code was e-mailed to {username}'s address; confirm with: "
        "cq verify -c <CODE>" + hint_for_profile(state, profile_.name)
    )


@user.command(name="email-address")
@click.argument("new_email", metavar="<NEW_EMAIL_ADDRESS>")
@pass_state
def email_address(state: AppState, new_email: str) -> None:
    """Change Email Address.

    A verification code is sent to the new address (a notice to the old one); the change
    happens when the code is entered with 'cq verify -c CODE' from this client.
    """
    with state.api() as api:
        answer = api.request_email_change(new_email)
    profile_ = state.profile
    profile_.verification_token = answer["verification_token"]
    profile_.verification_purpose = "email"
    state.save(profile_)
    click.echo(f"A verification code was e-mailed to {new_email}; "
               "confirm with: cq verify -c <CODE>")


@user.command(name="verify")
@click.option("-c", "--code", required=True, metavar="<VERIFICATION_CODE>",
              help="The verification code")
@pass_state
def user_verify(state: AppState, code: str) -> None:
    """Validate security sensitive actions (same as 'cq verify')."""
    run_verify(state, code)


@user.command()
@click.argument("new_description", metavar="<NEW_DESCRIPTION>")
@pass_state
def description(state: AppState, new_description: str) -> None:
    """Change User Description."""
    with state.api() as api:
        me = api.update_me({"description": new_description})
    click.echo(f"Description of {me.get('username')} is now: {me.get('description') or ''}")


@user.command()
@click.argument("new_username", metavar="<NEW_USERNAME>")
@pass_state
def username(state: AppState, new_username: str) -> None:
    """Change User Username."""
    with state.api() as api:
        me = api.update_me({"username": new_username})
    profile_ = state.profile
    profile_.username = me.get("username", new_username)
    state.save(profile_)
    click.echo(f"Your username is now {profile_.username}.")


@user.command()
@click.argument("user_name", metavar="[USER_NAME]", required=False)
@click.option("-s", "--highscores", is_flag=True,
              help="Include the users highscore for each game variant")
@pass_state
def show(state: AppState, user_name: str | None, highscores: bool) -> None:
    """Show User.

    Without a name: everything about yourself. With a name: that user's public fields.
    Both ratings (2 and 4 players) with their deviation, games and the last game's
    change; a rating shown with ? is provisional (deviation above 110).
    With --highscores: a table with the highest score the user reached in each game
    variant, with the id of the game where the user did that.
    """
    with state.api() as api:
        name = user_name
        if user_name is None:
            me = api.me()
            name = me.get("username")
            profile_ = state.profile
            if profile_.theme != me.get("theme"):
                profile_.theme = me.get("theme")
                state.save(profile_)
            click.echo("\n".join(show_me(me)))
        else:
            other = api.user(user_name)
            click.echo(f"Username: {other.get('username')}")
            click.echo(f"Description: {other.get('description') or ''}")
            click.echo(f"System admin: {on_off(other.get('is_admin'))}")
            click.echo(f"Created at: {other.get('created_at')}")
        if name:
            try:
                click.echo("\n".join(user_rating_lines(api.user_ratings(name))))
            except RefusedError as error:
                if not unknown_route(error):
                    raise
        if highscores and name:
            click.echo(render_highscores(api.highscores(name)))


@user.command()
@click.option("-g", "--game", is_flag=True,
              help="Toggle game status change notifications (active/finished/cancelled)")
@click.option("-a", "--action", is_flag=True,
              help="Toggle action notifications (any pawn move or wall placement)")
@click.option("-t", "--turn", is_flag=True, help="Toggle notification when it is your turn")
@click.option("-d", "--digest", is_flag=True,
              help="Toggle the daily digest: at most one e-mail a day listing the games "
              "where it is your turn, instead of one e-mail per event")
@pass_state
def notify(state: AppState, game: bool, action: bool, turn: bool, digest: bool) -> None:
    """Change notification settings in participating games.

    Each flag toggles one e-mail setting; 'cq user show' shows the settings. With the
    digest on, no e-mail is sent per event: one a day at most lists the games waiting
    for your move (ntfy notifications are not affected).
    """
    flags = (("game", game), ("action", action), ("turn", turn), ("digest", digest))
    chosen = [name for name, on in flags if on]
    if not chosen:
        raise click.UsageError("give at least one of --game, --action, --turn, --digest")
    with state.api() as api:
        current = api.me().get("notify") or {}
        me = api.update_me({"notify": {name: not current.get(name) for name in chosen}})
    notify_now = me.get("notify") or {}
    for name in ("turn", "action", "game"):
        click.echo(f"Notify on {name.capitalize()}: {on_off(notify_now.get(name))}")
    click.echo(f"Daily digest: {on_off(notify_now.get('digest'))}")


@user.command(name="ntfy-dm-topic")
@click.option("-n", "--ntfy-dm-topic", "topic", required=True, metavar="<NTFY_DM_TOPIC>",
              help="The topic of the user for DM's in ntfy.sh (keep secret); \"\" clears it")
@pass_state
def ntfy_dm_topic(state: AppState, topic: str) -> None:
    """Change the ntfy.sh topic for DM's of the user (keep secret).

    -n "" clears the topic: DMs are then no longer sent to ntfy.sh. Also spelled
    'cq user ntfy_dm_topic', as in the manual.
    """
    with state.api() as api:
        me = api.update_me({"ntfy_dm_topic": topic or None})
    now = me.get("ntfy_dm_topic")
    if now:
        click.echo(f"ntfy DM topic set to {now}.")
    else:
        click.echo("ntfy DM topic cleared: DMs are no longer sent to ntfy.sh.")


@user.command()
@click.argument("new_theme", metavar="<NEW_THEME>", type=click.Choice(THEME_NAMES))
@pass_state
def theme(state: AppState, new_theme: str) -> None:
    """Change user theme [possible values: dark, light, translucent]."""
    with state.api() as api:
        me = api.update_me({"theme": new_theme})
    profile_ = state.profile
    profile_.theme = me.get("theme", new_theme)
    state.save(profile_)
    click.echo(f"Theme set to {profile_.theme}.")


