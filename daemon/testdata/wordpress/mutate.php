<?php
// mutate.php changes the live WordPress of ../../shared/wordpress-live for
// TestWordPressLive, the way an author and a reader would:
//
//   php mutate.php --url=http://127.0.0.1:8080 --reply-to=COMMENT_ID --edit=POST_ID --token=TOKEN
//
// 1. publishes a new post (default category, tag "e2e-TOKEN");
// 2. adds an approved reply to comment COMMENT_ID (deep in the threaded
//    comments of its post);
// 3. appends a paragraph to post POST_ID (wp_update_post: post_modified moves).
//
// It prints one JSON object: post_id, post_url, comment_id, comment_post_url,
// edited_url. Like setup.sh's scripts it fakes the request from --url before
// loading WordPress, and keeps its own variables in $E2E because
// wp-settings.php owns globals such as $post, $id, $wp and $theme.
$E2E = ['url' => '', 'reply-to' => 0, 'edit' => 0, 'token' => ''];
foreach (array_slice($argv, 1) as $a) {
    if (!preg_match('/^--(url|reply-to|edit|token)=(.+)$/', $a, $m)) {
        fwrite(STDERR, "mutate.php: unknown argument $a\n");
        exit(2);
    }
    $E2E[$m[1]] = $m[2];
}
if ($E2E['url'] === '' || !$E2E['reply-to'] || !$E2E['edit'] || $E2E['token'] === '') {
    fwrite(STDERR, "usage: php mutate.php --url=URL --reply-to=COMMENT_ID --edit=POST_ID --token=TOKEN\n");
    exit(2);
}
$E2E['u'] = parse_url($E2E['url']);
$_SERVER['HTTP_HOST'] = $E2E['u']['host'] . (isset($E2E['u']['port']) ? ':' . $E2E['u']['port'] : '');
$_SERVER['SERVER_NAME'] = $E2E['u']['host'];
$_SERVER['SERVER_PORT'] = $E2E['u']['port'] ?? 80;
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['REQUEST_METHOD'] = 'GET';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
require '/usr/share/wordpress/wp-load.php';

$E2E['admin'] = (int) (get_users(['role' => 'administrator', 'fields' => 'ID', 'number' => 1])[0] ?? 0);
wp_set_current_user($E2E['admin']);

function e2e_fail($what, $err) {
    fwrite(STDERR, "mutate.php: $what: " . (is_wp_error($err) ? $err->get_error_message() : var_export($err, true)) . "\n");
    exit(1);
}

// 1. A new post.
$E2E['post'] = wp_insert_post(wp_slash([
    'post_title'    => 'Written during the end-to-end test ' . $E2E['token'],
    'post_content'  => "<p>This post was published by the end-to-end test while the daemon was running. "
        . "Its token is {$E2E['token']}, so that the archive can be checked against it.</p>\n"
        . "<p>A second paragraph gives the rule learner some text to work with, as any real post would.</p>",
    'post_status'   => 'publish',
    'post_author'   => $E2E['admin'],
    'post_category' => [(int) get_option('default_category')],
    'tags_input'    => ['e2e-' . $E2E['token']],
]), true);
if (is_wp_error($E2E['post']) || !$E2E['post']) {
    e2e_fail('new post', $E2E['post']);
}

// 2. A reply deep in the thread.
$E2E['parent'] = get_comment((int) $E2E['reply-to']);
if (!$E2E['parent']) {
    e2e_fail('reply-to', $E2E['reply-to']);
}
$E2E['comment'] = wp_insert_comment(wp_slash([
    'comment_post_ID'      => (int) $E2E['parent']->comment_post_ID,
    'comment_parent'       => (int) $E2E['parent']->comment_ID,
    'comment_author'       => 'Deep Thread Reader',
    'comment_author_email' => 'deep-reader@example.org',
    'comment_author_url'   => '',
    'comment_content'      => "A reply written deep in the thread by the end-to-end test, token {$E2E['token']}.",
    'comment_approved'     => 1,
    'comment_type'         => 'comment',
    'comment_date'         => current_time('mysql'),
    'comment_date_gmt'     => current_time('mysql', 1),
]));
if (!$E2E['comment']) {
    e2e_fail('new comment', $E2E['comment']);
}
wp_update_comment_count((int) $E2E['parent']->comment_post_ID);

// 3. An edited post.
$E2E['edited'] = get_post((int) $E2E['edit']);
if (!$E2E['edited']) {
    e2e_fail('edit', $E2E['edit']);
}
$E2E['r'] = wp_update_post(wp_slash([
    'ID'           => $E2E['edited']->ID,
    'post_content' => $E2E['edited']->post_content
        . "\n\n<p>Edited by the end-to-end test: this paragraph was added later, token {$E2E['token']}.</p>",
]), true);
if (is_wp_error($E2E['r'])) {
    e2e_fail('edit post', $E2E['r']);
}
clean_post_cache($E2E['edited']->ID);

echo json_encode([
    'post_id'          => $E2E['post'],
    'post_url'         => get_permalink($E2E['post']),
    'comment_id'       => $E2E['comment'],
    'comment_post_url' => get_permalink((int) $E2E['parent']->comment_post_ID),
    'edited_url'       => get_permalink($E2E['edited']->ID),
]), "\n";
