package account

import (
	"fmt"
	"time"

	"github.com/shortlink/shortlink/backend/locale"
)

// The account's mails, each in the language of the person it goes to (docs/web-app.md#language-errors-and-confirmations).

func invitationMail(lang locale.Tag, inv *Invitation, link string) (subject, body string) {
	name := inv.WorkspaceName
	if lang == locale.Chinese {
		if name == "" {
			name = "一个工作区"
		}
		return "邀请您加入 Shortlink 上的「" + name + "」", fmt.Sprintf(`您好：

有人邀请您以 %s 身份加入 Shortlink 上的「%s」。请打开下面的链接，用 %s 登录或注册后接受或拒绝：

%s

如果您不认识这个工作区，请忽略这封邮件：在您接受之前不会发生任何事。
`, inv.Role, name, inv.Email, link)
	}
	if name == "" {
		name = "a workspace"
	}
	return "You are invited to " + name + " on Shortlink", fmt.Sprintf(`Hello,

you are invited to join %q on Shortlink as %s. Open this link, and sign in or sign up with
%s to accept or decline:

%s

If you do not know this workspace, ignore this mail: nothing happens until you accept.
`, name, inv.Role, inv.Email, link)
}

func verifyMail(lang locale.Tag, email, link string) (subject, body string) {
	if lang == locale.Chinese {
		return "请确认您在 Shortlink 的邮箱地址", fmt.Sprintf(`您好：

请打开下面的链接，确认 %s 是您的邮箱地址：

%s

链接只能使用一次，%d 小时内有效。确认之前，您可以使用自己的工作区，但不能加入其他工作区。

如果您没有注册 Shortlink，请忽略这封邮件。
`, email, link, int(VerifyTTL.Hours()))
	}
	return "Confirm your email address for Shortlink", fmt.Sprintf(`Hello,

open this link to confirm that %s is your address:

%s

The link works once, within %d hours. Until you confirm, you can use your own workspace but
cannot join other workspaces.

If you did not sign up for Shortlink, ignore this mail.
`, email, link, int(VerifyTTL.Hours()))
}

func resetMail(lang locale.Tag, link string) (subject, body string) {
	if lang == locale.Chinese {
		return "重置您的 Shortlink 密码", fmt.Sprintf(`您好：

有人（希望是您本人）请求重置您 Shortlink 账号的密码。请打开下面的链接设置新密码：

%s

链接只能使用一次，%d 分钟内有效。设置新密码后，所有会话都会退出登录。

如果这不是您的请求，请忽略这封邮件：您的密码不会改变。
`, link, int(ResetTTL.Minutes()))
	}
	return "Reset your Shortlink password", fmt.Sprintf(`Hello,

someone, hopefully you, asked to reset the password of your Shortlink account. Open this link
to choose a new one:

%s

The link works once, within %d minutes. Setting a new password signs out every session.

If you did not ask for this, ignore this mail: your password stays as it is.
`, link, int(ResetTTL.Minutes()))
}

func passwordChangedMail(lang locale.Tag) (subject, body string) {
	if lang == locale.Chinese {
		return "您的 Shortlink 密码已更改", `您好：

您 Shortlink 账号的密码刚刚被更改，该账号的其他所有会话都已退出登录。

如果这不是您本人操作，请立即在登录页点击“忘记密码？”重置密码。
`
	}
	return "Your Shortlink password was changed", `Hello,

the password of your Shortlink account was just changed, and every other session of it was
signed out.

If you did not do this, reset your password at once with "Forgot password?" on the login page.
`
}

func changeEmailMail(lang locale.Tag, current, email, link string) (subject, body string) {
	if lang == locale.Chinese {
		return "请确认您在 Shortlink 的新邮箱地址", fmt.Sprintf(`您好：

%s 的 Shortlink 账号请求今后改用 %s。请打开下面的链接确认：

%s

链接只能使用一次，%d 小时内有效。在此之前，账号仍使用当前地址。

如果这不是您的请求，请忽略这封邮件。
`, current, email, link, int(VerifyTTL.Hours()))
	}
	return "Confirm your new email address for Shortlink", fmt.Sprintf(`Hello,

the Shortlink account of %s asked to use %s from now on. Open this link to confirm:

%s

The link works once, within %d hours. Until then the account keeps its current address.

If you did not ask for this, ignore this mail.
`, current, email, link, int(VerifyTTL.Hours()))
}

func emailChangedMail(lang locale.Tag, old, email string) (subject, body string) {
	if lang == locale.Chinese {
		return "您的 Shortlink 邮箱地址已更改", fmt.Sprintf(`您好：

原先使用 %s 的 Shortlink 账号现在改用 %s：此地址已不能再登录。

如果这不是您本人操作，请立即回复这封邮件或联系服务的运营者。
`, old, email)
	}
	return "Your Shortlink email address was changed", fmt.Sprintf(`Hello,

the Shortlink account that used %s now uses %s: this address no longer signs in.

If you did not do this, reply to this mail or contact the service's operator at once.
`, old, email)
}

func lockoutMail(lang locale.Tag, forgot string, failures int, until time.Time) (subject, body string) {
	at := until.UTC().Format("2006-01-02 15:04 MST")
	if lang == locale.Chinese {
		return "您的 Shortlink 账号收到了错误的登录验证码", fmt.Sprintf(`您好：

有人连续输入了 %d 次错误的两步验证码来登录您的 Shortlink 账号。验证码在密码之后输入，
所以输入它们的人知道您的密码。

在 %s 之前，您的账号不接受任何验证码，包括正确的验证码和恢复码。之后每一轮错误都会锁定更久，
每次最长一天；输入正确的验证码即可解除。

如果不是您本人，请立即设置新密码：用旧密码登录的会话都会结束，对方手中的验证码也将失效。

%s
`, failures, at, forgot)
	}
	return "Wrong sign-in codes on your Shortlink account", fmt.Sprintf(`Hello,

%d wrong two-factor codes in a row were entered to sign in to your Shortlink account. They
come after the password, so whoever entered them knows your password.

Until %s no code is taken for your account, not even a right one
or a recovery code. Each further run of wrong codes locks it longer, up to a day at a time;
a right code ends this.

If it was not you, choose a new password now: sessions signed in with the old one end, and
the codes become useless to whoever has it.

%s
`, failures, at, forgot)
}
